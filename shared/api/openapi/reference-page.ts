import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Redocly CLI of the dev dependencies, run with the Node.js that runs us. */
const redoclyCli = (): string =>
  join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

/**
 * The API reference as one self-contained HTML page: Redoc, through `redocly build-docs --inlineBundle`, with its
 * scripts and the document inside the page, so that it fetches nothing from the network.
 */
export const buildReferencePage = async (document: object): Promise<string> => {
  const directory = await mkdtemp(join(tmpdir(), 'reference-'));
  try {
    const source = join(directory, 'openapi.json');
    const page = join(directory, 'index.html');
    await writeFile(source, JSON.stringify(document));
    await run(
      process.execPath,
      [redoclyCli(), 'build-docs', source, '--output', page, '--inlineBundle', '--title', 'Delivery Limits API'],
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    );
    return await readFile(page, 'utf8');
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
};

/** What the page may load: its own inline scripts and styles, and nothing from anywhere else. */
export const REFERENCE_PAGE_POLICY =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; worker-src blob:";
