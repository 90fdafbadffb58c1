import type { INodeProperties, INodePropertyRouting } from 'n8n-workflow';

/**
 * A resource's body fields are plain n8n parameters, written out as object literals so that a
 * reader and n8n's lint see every property: each is named exactly as the API field, and sent by
 * its own `routing`, beside it. What the generic body check (`item/body-check.ts`) needs to know
 * of a field it reads from the field itself: `required`, the static values of an options list
 * (`''` first means "not sent"), a number's `minValue` and `maxValue`, and a name ending in `Url`
 * for the addresses the service downloads. When a resource's fields are shown is said once, for
 * all of them, with n8n's `updateDisplayOptions`.
 */

/** The body field `name`, sent as it is. */
export function sentAs(name: string): INodePropertyRouting {
	return { send: { type: 'body', property: name } };
}

/** The example address a photo URL field shows. */
export const PHOTO_PLACEHOLDER = 'e.g. https://example.com/listing/photo.jpg';

/**
 * `imageUrl`, the photo the task works on: the one field most APIs share, and the one a photo file
 * stands in for (`photo-fields.ts`). Written once; a resource says which photo in its own
 * description: `{ ...imageUrlField, description: 'Public URL of the image of the room' }`.
 */
export const imageUrlField: INodeProperties = {
	displayName: 'Image URL',
	name: 'imageUrl',
	type: 'string',
	required: true,
	default: '',
	placeholder: PHOTO_PLACEHOLDER,
	description: 'Public URL of the image',
	routing: sentAs('imageUrl'),
};

/** `prompt`, in the user's own words; a resource says what it guides in its own description. */
export const promptField: INodeProperties = {
	displayName: 'Prompt',
	name: 'prompt',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
	description: 'Guidance in your own words',
	routing: sentAs('prompt'),
};
