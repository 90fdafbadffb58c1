// Sample inputs served by the service itself, so demos and tests need no outside image host.
// They are drawn from flat shapes (cheap to encode) and built once, on first request.
import { encodePng } from './png.ts';

type Rgb = readonly [number, number, number];

interface Box {
	x0: number;
	y0: number;
	x1: number;
	y1: number;
	color: Rgb;
}

interface Scene {
	width: number;
	height: number;
	background: (y: number) => Rgb;
	boxes: Box[];
	/** Multiplies every channel, for the exposure brackets. */
	exposure?: number;
}

function drawScene(scene: Scene): Buffer {
	const rows = new Map<string, Buffer>();
	const pixel = (color: Rgb) =>
		Buffer.from(
			color.map((v) => Math.max(0, Math.min(255, Math.round(v * (scene.exposure ?? 1))))),
		);
	const columns = (value: number) => Math.max(0, Math.min(scene.width, Math.round(value))) * 3;
	return encodePng({
		width: scene.width,
		height: scene.height,
		color: 'rgb',
		row: (y) => {
			const background = scene.background(y);
			const boxes = scene.boxes.filter((box) => y >= box.y0 && y < box.y1);
			// Identical rows must be the same Buffer: the encoder then writes them as repeats.
			const key = `${background.join()}|${boxes.map((box) => scene.boxes.indexOf(box)).join()}`;
			let row = rows.get(key);
			if (!row) {
				// Whole-span fills, no per-pixel JavaScript: this runs for every distinct row.
				row = Buffer.alloc(scene.width * 3).fill(pixel(background));
				for (let i = 0; i < boxes.length; i++) {
					const start = columns(boxes[i].x0);
					const end = columns(boxes[i].x1);
					if (end > start) row.fill(pixel(boxes[i].color), start, end);
				}
				rows.set(key, row);
			}
			return row;
		},
	});
}

function interior(width: number, height: number, wall: Rgb, floor: Rgb, boxes: Box[]): Scene {
	const horizon = Math.round(height * 0.7);
	return { width, height, background: (y) => (y < horizon ? wall : floor), boxes };
}

function outdoor(width: number, height: number, exposure?: number): Scene {
	const horizon = Math.round(height * 0.55);
	return {
		width,
		height,
		exposure,
		// Sky fading from deep to pale blue, then a lawn. Whole-number steps keep neighbouring rows
		// identical, which the encoder writes as repeats.
		background: (y) =>
			y < horizon
				? [90 + Math.round((y * 90) / horizon), 140 + Math.round((y * 70) / horizon), 220]
				: [70, 140, 60],
		boxes: [
			{
				x0: width * 0.25,
				y0: height * 0.3,
				x1: width * 0.75,
				y1: height * 0.75,
				color: [215, 205, 190],
			},
			{
				x0: width * 0.2,
				y0: height * 0.22,
				x1: width * 0.8,
				y1: height * 0.3,
				color: [110, 60, 50],
			},
			{
				x0: width * 0.45,
				y0: height * 0.55,
				x1: width * 0.55,
				y1: height * 0.75,
				color: [90, 60, 40],
			},
		],
	};
}

/** The sofa of living-room.png: the mask's black area covers exactly this box. */
const SOFA = { x0: 800, y0: 700, x1: 1300, y1: 950 };

interface SampleDefinition {
	name: string;
	description: string;
	build: () => Buffer;
}

const DEFINITIONS: SampleDefinition[] = [
	{
		name: 'living-room.png',
		description: 'Interior listing photo, 1600x1200, with a sofa to remove',
		build: () =>
			drawScene(
				interior(
					1600,
					1200,
					[225, 215, 195],
					[150, 105, 70],
					[
						{ x0: 200, y0: 200, x1: 600, y1: 600, color: [200, 225, 245] },
						{ ...SOFA, color: [70, 75, 85] },
					],
				),
			),
	},
	{
		name: 'living-room-mask.png',
		description:
			'Mask for living-room.png (same 1600x1200): black = remove (the sofa), white = keep',
		build: () => {
			const white = Buffer.alloc(1600, 255);
			const sofa = Buffer.alloc(1600, 255).fill(0, SOFA.x0, SOFA.x1);
			return encodePng({
				width: 1600,
				height: 1200,
				color: 'gray',
				row: (y) => (y >= SOFA.y0 && y < SOFA.y1 ? sofa : white),
			});
		},
	},
	{
		name: 'kitchen.png',
		description: 'Interior listing photo, 1280x960',
		build: () =>
			drawScene(
				interior(
					1280,
					960,
					[240, 240, 235],
					[120, 120, 125],
					[
						{ x0: 100, y0: 450, x1: 1180, y1: 700, color: [250, 250, 250] },
						{ x0: 100, y0: 150, x1: 500, y1: 380, color: [160, 110, 70] },
						{ x0: 800, y0: 150, x1: 1180, y1: 380, color: [160, 110, 70] },
					],
				),
			),
	},
	{
		name: 'exterior.png',
		description: 'Exterior listing photo, 1920x1280, with a sky to replace',
		build: () => drawScene(outdoor(1920, 1280)),
	},
	...[0.45, 1, 1.7].map((exposure, i) => ({
		name: `bracket-${i + 1}.png`,
		description: `HDR exposure bracket ${i + 1} of 3 (1200x800), for hdr-merge-hdr-merge`,
		build: () => drawScene(outdoor(1200, 800, exposure)),
	})),
	{
		name: 'tiny.png',
		description: 'Valid PNG of 64x64, below the 128 px minimum of the photo enhancer',
		build: () => drawScene(interior(64, 64, [200, 200, 200], [100, 100, 100], [])),
	},
	{
		name: 'not-an-image.png',
		description: 'Text bytes behind a .png name, to test format detection',
		build: () => Buffer.from('This is plain text, not an image, whatever its name says.\n', 'utf8'),
	},
];

const built = new Map<string, Buffer>();

export const SAMPLE_NAMES: readonly string[] = DEFINITIONS.map((definition) => definition.name);

export function sampleBytes(name: string): Buffer | undefined {
	const definition = DEFINITIONS.find((candidate) => candidate.name === name);
	if (!definition) return undefined;
	let bytes = built.get(name);
	if (!bytes) {
		bytes = definition.build();
		built.set(name, bytes);
	}
	return bytes;
}

export function sampleList(
	baseUrl: string,
): Array<{ name: string; url: string; description: string }> {
	return DEFINITIONS.map((definition) => ({
		name: definition.name,
		url: `${baseUrl}/samples/${definition.name}`,
		description: definition.description,
	}));
}
