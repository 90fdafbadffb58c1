/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
// n8n-core writes an instance config (with an encryption key) under the user folder on first use:
// keep it out of the developer's home.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'ideal-house-n8n-'));

// The engine also prints every node error to the console; the tests read errors from the run data.
process.env.N8N_LOG_LEVEL ??= 'silent';
