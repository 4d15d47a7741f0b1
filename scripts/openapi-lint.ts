import { readArguments } from './command-line';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const USAGE = `Usage: npm run openapi:lint
  Writes the generated OpenAPI document and lints it with Redocly's recommended rules (redocly.yaml); exits 1 on
  any problem.`;
readArguments(USAGE, {});

// loaded once the arguments are read: --help and a mistyped option answer without loading the tool's work
const { buildOpenApiDocument } = await import('../shared/api/openapi/openapi-document');

/** Writes the generated OpenAPI document and lints it with Redocly's recommended rules; fails on any problem. */
const file = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));
execFileSync('npx', ['redocly', 'lint', '--config', 'redocly.yaml', '--max-problems', '50', file], {
  stdio: 'inherit',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
