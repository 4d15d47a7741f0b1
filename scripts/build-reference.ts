import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../shared/api/openapi/openapi-document';
import { PLACEHOLDER_SERVER_URL } from '../shared/api/openapi/published-reference';
import { buildReferencePage } from '../shared/api/openapi/reference-page';

/**
 * Writes the reference page and document, built for the placeholder server, into a directory: the stack's
 * reference function is bundled with them and serves them for the server it is called on.
 */
const [directory] = process.argv.slice(2);
if (!directory) throw new Error('Usage: build-reference.ts DIRECTORY');
const document = buildOpenApiDocument(PLACEHOLDER_SERVER_URL);
await mkdir(directory, { recursive: true });
await writeFile(join(directory, 'openapi.json'), JSON.stringify(document));
await writeFile(join(directory, 'reference.html'), await buildReferencePage(document));
