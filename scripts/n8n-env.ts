/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
// n8n-core writes an instance config (with an encryption key) under the user folder on first
// use: scripts keep it in a temporary folder. Import this module before anything from n8n.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'ideal-house-n8n-'));
