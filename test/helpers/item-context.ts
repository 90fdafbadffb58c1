import type { IExecuteSingleFunctions, IN8nHttpFullResponse, INode } from 'n8n-workflow';

import type { IdealHouseError } from '../../nodes/shared/core/errors';

/** The little of an item's context that the transport and the error builders read. */
export function itemContext(itemIndex: number): IExecuteSingleFunctions {
	const node = { name: 'Ideal House', type: 'n8n-nodes-ideal-house.photoEnhancer' } as INode;
	return {
		getNode: () => node,
		getItemIndex: () => itemIndex,
		getNodeParameter: () => undefined,
	} as unknown as IExecuteSingleFunctions;
}

export function httpResponse(
	statusCode: number,
	body: string,
	headers: Record<string, string> = {},
): IN8nHttpFullResponse {
	return { statusCode, body, headers };
}

/** The error `fn` throws; a test that expects one fails when it returns. */
export function thrownBy(fn: () => unknown): IdealHouseError {
	try {
		fn();
	} catch (error) {
		return error as IdealHouseError;
	}
	throw new Error('expected an error');
}
