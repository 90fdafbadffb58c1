import type { INodeProperties, INodePropertyRouting } from 'n8n-workflow';

// Body fields are plain n8n parameters, object literals so n8n's lint sees them, each named as its
// API field and sent by its own `routing`; `item-life/body-check.ts` reads its rules from them.

/** The body field `name`, sent as it is. */
export function sentAs(name: string): INodePropertyRouting {
	return { send: { type: 'body', property: name } };
}

export const PHOTO_PLACEHOLDER = 'e.g. https://example.com/listing/photo.jpg';

/** `imageUrl`, the field a photo file stands in for; a resource gives it its own description. */
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
