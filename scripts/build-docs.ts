import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CommandFailure, readArguments, runTool } from './command-line';

const USAGE = `Usage: npm run docs -- [--server-url URL]
  Writes dist/docs/openapi.json and dist/docs/index.html (the reference page, self-contained) for publishing.
  --server-url  the deployed API, such as the stack output ApiUrl (default: a placeholder to replace)`;

const { values } = readArguments(USAGE, { 'server-url': { type: 'string' } });

// loaded once the arguments are read: --help and a mistyped option answer without loading the tool's work
const { buildOpenApiDocument } = await import('../shared/api/openapi/openapi-document');
const { buildReferencePage } = await import('../shared/api/openapi/reference-page');

await runTool(async () => {
  const serverUrl = values['server-url'] ?? 'https://api.example.com/prod';
  if (!/^https?:\/\//.test(serverUrl))
    throw new CommandFailure('--server-url needs the API URL, such as the stack output ApiUrl (https://…).');
  const document = buildOpenApiDocument(serverUrl);
  const directory = join('dist', 'docs');
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'openapi.json'), JSON.stringify(document, null, 2));
  await writeFile(join(directory, 'index.html'), await buildReferencePage(document));
  console.log(`Wrote ${join(directory, 'openapi.json')} and ${join(directory, 'index.html')}`);
});
