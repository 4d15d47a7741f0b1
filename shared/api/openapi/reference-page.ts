import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { referencePagePolicy } from './reference-policy';

const run = promisify(execFile);

/** The Redocly CLI of the dev dependencies, run with the Node.js that runs us. */
const redoclyCli = (): string =>
  join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

/** Redoc's footer logo, which its bundle fetches from a CDN: an empty image instead, which it then hides. */
const CDN_LOGO = /https:\/\/cdn\.redoc\.ly\/[^`'"\s]*/g;

const LEGACY_LINK = /^#(?:tag\/[^/]+\/)?operation\/([^/?#]+)$/;

type Paths = Record<string, Record<string, { operationId?: string; tags?: string[] }>>;

/**
 * Links written the way Redoc 2 made them (`#operation/{operationId}`, `#tag/{tag}/operation/{operationId}`),
 * which partners keep in bookmarks and documents, turned into the page's own routes (`#/{tag}/{operationid}`)
 * before Redoc starts; Redoc 3 would answer them with its 404 view.
 */
export const legacyLinkScript = (document: object): string => {
  const tags = Object.fromEntries(
    Object.values((document as { paths: Paths }).paths)
      .flatMap((methods) => Object.values(methods))
      .filter((operation) => operation.operationId && operation.tags?.[0])
      .map((operation) => [operation.operationId!, operation.tags![0]!]),
  );
  return `(function(){var tags=${JSON.stringify(tags)};var link=${LEGACY_LINK}.exec(location.hash);if(link&&tags[link[1]])location.replace('#/'+tags[link[1]]+'/'+link[1].toLowerCase());})();`;
};

/** The page with its policy in a meta element, so that it holds wherever the file is published. */
const withPolicy = (page: string, document: object): string => {
  const html = page
    .replace(CDN_LOGO, 'data:,')
    .replace(/<head>/i, `<head>\n    <script>${legacyLinkScript(document)}</script>`);
  const meta = `<meta http-equiv="Content-Security-Policy" content="${referencePagePolicy(html)}">`;
  return html.replace(/<head>/i, `<head>\n    ${meta}`);
};

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
    return withPolicy(await readFile(page, 'utf8'), document);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
};
