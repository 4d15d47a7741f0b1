import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../shared/api/openapi/openapi-document';
import { buildReferencePage } from '../shared/api/openapi/reference-page';

/**
 * `npm run docs [-- --server-url URL]`: writes `dist/docs/openapi.json` and `dist/docs/index.html` (the reference
 * page, self-contained) for publishing; the server URL is the API's, by default a placeholder to replace.
 */
const serverFlag = process.argv.indexOf('--server-url');
const serverUrl = serverFlag > 0 ? process.argv[serverFlag + 1] : undefined;
if (process.argv.includes('--help')) {
  console.log('Usage: npm run docs [-- --server-url https://…/prod]  writes dist/docs/openapi.json and index.html');
  process.exit(0);
}
if (serverFlag > 0 && !serverUrl?.startsWith('http')) {
  console.error('--server-url needs the API URL, such as the stack output ApiUrl (https://…)');
  process.exit(1);
}
const document = buildOpenApiDocument(serverUrl ?? 'https://api.example.com/prod');
const directory = join('dist', 'docs');
await mkdir(directory, { recursive: true });
await writeFile(join(directory, 'openapi.json'), JSON.stringify(document, null, 2));
await writeFile(join(directory, 'index.html'), await buildReferencePage(document));
console.log(`Wrote ${join(directory, 'openapi.json')} and ${join(directory, 'index.html')}`);
