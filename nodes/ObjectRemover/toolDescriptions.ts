import { APIS } from '../shared/catalog/apis';
import { priceText } from '../shared/catalog/credits';

/** What a model is told of Remove; the node adds what the Credit Limit means for its calls. */
export const REMOVE_TOOL_DESCRIPTION = [
	'Removes furniture from an interior real-estate photo with Ideal House AI and returns the emptied room.',
	'Inputs: the public URL of the photo (JPG, PNG or WebP).',
	'Whole House mode removes all furniture automatically; Single Furniture mode removes only what a mask image marks (black = remove, white = keep, same size as the photo).',
	`Cost: ${priceText(APIS.objectRemover)}, refunded if the task fails. Duration: usually under a minute; the tool waits for the result.`,
	'Returns JSON {id, status, resultUrl, width, height, creditsCharged}; give the user the resultUrl exactly as returned.',
].join(' ');

export const REMOVAL_RESULT_TOOL_DESCRIPTION =
	'Reads the current status and result of an Ideal House furniture removal task by its ID (the "id" an earlier call returned; keep it as text). Free. Returns JSON {id, status, resultUrl, width, height, creditsCharged}.';
