/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console */
/**
 * `npm run chat-model-stub`: the scripted chat model on http://127.0.0.1:8790/v1 (or `--port N`),
 * for trying the AI agent example without a real model. Any API key is accepted.
 */
import { startChatModel } from './server.ts';

const portFlag = process.argv.indexOf('--port');
const port = portFlag === -1 ? 8790 : Number(process.argv[portFlag + 1]);
void startChatModel({ port }).then((stub) => {
	console.log(
		`Scripted chat model on ${stub.baseUrl} (model "ideal-house-scripted", any API key).`,
	);
	console.log(
		'Try: Enhance http://127.0.0.1:8787/samples/living-room.png with the preset "Sunset Sky"',
	);
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.on(signal, () => void stub.close().then(() => process.exit(0)));
	}
});
