// The /api/v1 paths the service answers: create and result for each API it knows, and the style
// config. Any other /api path is a 404 with a 1001 envelope, as for an API the service lacks.
import { CATALOG_APIS } from './apis.ts';
import type { TaskKind } from './tasks.ts';
import { SPEC_APIS } from './tasks.ts';

export type ApiRoute =
	| { endpoint: string; method: 'POST'; action: 'generate'; kind: TaskKind }
	| { endpoint: string; method: 'GET'; action: 'result'; kind: TaskKind }
	| { endpoint: 'style.getStyles'; method: 'GET'; action: 'getStyles'; styleKey: string };

export const TASK_KINDS: readonly TaskKind[] = [...SPEC_APIS, ...CATALOG_APIS];

const TASK_ROUTES = new Map<string, ApiRoute>(
	TASK_KINDS.flatMap(
		(kind): Array<[string, ApiRoute]> => [
			[
				`/api/v1/${kind}/generate`,
				{ endpoint: `${kind}.generate`, method: 'POST', action: 'generate', kind },
			],
			[
				`/api/v1/${kind}/result`,
				{ endpoint: `${kind}.result`, method: 'GET', action: 'result', kind },
			],
		],
	),
);

// Every key shares one endpoint in the counters and the fault filter: it is one API.
const STYLE_PATH = /^\/api\/v1\/style\/([^/]+)\/getStyles$/;

export function findRoute(path: string): ApiRoute | undefined {
	const route = TASK_ROUTES.get(path);
	if (route) return route;
	const style = STYLE_PATH.exec(path);
	if (!style) return undefined;
	let styleKey = style[1];
	try {
		styleKey = decodeURIComponent(styleKey);
	} catch {
		// Left as sent: the answer names it as an unknown key.
	}
	return { endpoint: 'style.getStyles', method: 'GET', action: 'getStyles', styleKey };
}
