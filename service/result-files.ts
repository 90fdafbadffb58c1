// What a successful task hands out: its `output` object and the files behind its URLs. Images
// are PNGs of the task's output size at /results/<id>.png (House Plan's 2026-03-06 version:
// /results/<id>-1.png to -3.png); an AI 3D model is a GLB at /results/<id>.glb.
import { createHash } from 'node:crypto';
import type { ResultKind } from './apis.ts';
import { API_ROWS, isCatalogApi } from './apis.ts';
import { houseModelGlb } from './glb.ts';
import { gradientPng, noisyPng } from './png.ts';
import type { TaskKind, TaskRecord } from './tasks.ts';

export interface TaskOutput {
	resultUrl: string;
	width: number | null;
	height: number | null;
	resultList?: string[];
}

export interface ResultFile {
	bytes: Buffer;
	contentType: string;
}

type Rgb = readonly [number, number, number];

const RESULT_CACHE_SIZE = 8;

/** The two spec APIs keep the colours they always had; the others get theirs from their name. */
const SPEC_COLORS: Record<string, readonly [Rgb, Rgb]> = {
	photoEnhancer: [
		[255, 196, 120],
		[70, 130, 210],
	],
	objectRemover: [
		[235, 230, 220],
		[150, 140, 130],
	],
};

export function resultKindOf(kind: TaskKind): ResultKind {
	return isCatalogApi(kind) ? API_ROWS[kind].result : 'image';
}

function imageUrls(base: string, task: TaskRecord): string[] {
	if (task.resultCount <= 1) return [`${base}.png`];
	return Array.from({ length: task.resultCount }, (_, index) => `${base}-${index + 1}.png`);
}

export function taskOutput(publicUrl: string, task: TaskRecord): TaskOutput {
	const base = `${publicUrl}/results/${task.id}`;
	const kind = resultKindOf(task.kind);
	if (kind === 'model3d') return { resultUrl: `${base}.glb`, width: null, height: null };
	const size = { width: task.outputWidth, height: task.outputHeight };
	if (kind === 'image') return { resultUrl: `${base}.png`, ...size };
	const list = imageUrls(base, task);
	return { resultUrl: list[0], ...size, resultList: list };
}

export interface ResultPath {
	id: bigint;
	/** 0 for /results/<id>.<ext>, n for /results/<id>-n.png. */
	index: number;
	extension: 'png' | 'glb';
}

export function parseResultPath(path: string): ResultPath | undefined {
	const match = /^\/results\/(\d{1,19})(?:-([1-9]))?\.(png|glb)$/.exec(path);
	if (!match) return undefined;
	return {
		id: BigInt(match[1]),
		index: match[2] ? Number(match[2]) : 0,
		extension: match[3] as 'png' | 'glb',
	};
}

/** Whether the task's output names this file: its URLs, and nothing else, are served. */
export function namesFile(task: TaskRecord, path: ResultPath): boolean {
	const kind = resultKindOf(task.kind);
	if (kind === 'model3d') return path.extension === 'glb' && path.index === 0;
	if (path.extension !== 'png') return false;
	return task.resultCount <= 1
		? path.index === 0
		: path.index >= 1 && path.index <= task.resultCount;
}

function colorsOf(kind: TaskKind, index: number): readonly [Rgb, Rgb] {
	if (index === 0 && SPEC_COLORS[kind]) return SPEC_COLORS[kind];
	const bytes = createHash('sha256').update(`${kind}/${index}`).digest();
	return [
		[bytes[0], bytes[1], bytes[2]],
		[bytes[3], bytes[4], bytes[5]],
	];
}

/** Builds result files, keeping the last few images: clients often download the same one again. */
export class ResultFiles {
	private readonly images = new Map<string, Buffer>();

	file(task: TaskRecord, path: ResultPath, resultBytes: number, seed: number): ResultFile {
		if (path.extension === 'glb') {
			return { bytes: houseModelGlb(`task ${task.id}`), contentType: 'model/gltf-binary' };
		}
		return {
			bytes: this.image(task, path.index, resultBytes, seed),
			contentType: 'image/png',
		};
	}

	clear(): void {
		this.images.clear();
	}

	private image(task: TaskRecord, index: number, resultBytes: number, seed: number): Buffer {
		const width = task.outputWidth as number;
		const height = task.outputHeight as number;
		const key = `${task.kind}:${index}:${width}x${height}:${resultBytes}`;
		let png = this.images.get(key);
		if (png) {
			this.images.delete(key); // re-inserted below: most recently used last
		} else if (resultBytes > 0) {
			// Each image of a list gets its own noise, so the files differ as real ones would.
			png = noisyPng(width, height, resultBytes, seed + index);
		} else {
			const [from, to] = colorsOf(task.kind, index);
			png = gradientPng(width, height, from, to);
		}
		this.images.set(key, png);
		if (this.images.size > RESULT_CACHE_SIZE) {
			this.images.delete(this.images.keys().next().value as string);
		}
		return png;
	}
}
