import { ESLint, type Linter } from 'eslint';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

interface LayoutRow {
  folders: string[];
  mayImport: string[] | 'anything';
}

const { LAYOUT } = (await import(pathToFileURL(join(ROOT, 'eslint.config.js')).href)) as { LAYOUT: LayoutRow[] };

const eslint = new ESLint({ cwd: ROOT });

/** What lint says of `code` as if it were the file at `filePath`, with the project's own configuration. */
const lint = async (filePath: string, code: string): Promise<Linter.LintMessage[]> => {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  return result!.messages;
};

/** What lint says of the file at `filePath` importing `source`. */
const lintImport = (filePath: string, source: string): Promise<Linter.LintMessage[]> =>
  lint(filePath, `import * as planted from '${source}';\nexport const used = planted;\n`);

const rowName = (row: LayoutRow): string => row.folders.join(', ');

/** The start of the message lint gives for an import breaking `row`. */
const ruleOf = (row: LayoutRow): string => `Layout (docs/architecture.md): ${row.folders.join('/, ')}/ may import`;

/** Per row of the table, a file in each of its folders, an import that breaks the row and one it permits. */
const FIXTURES: Record<string, { file: string; refused?: string; permitted: string }[]> = {
  'shared/domain': [{ file: 'shared/domain/planted.ts', refused: '../table/keys', permitted: './levels' }],
  'shared/ports': [{ file: 'shared/ports/planted.ts', refused: '../table/keys', permitted: '../domain/levels' }],
  'shared/table': [{ file: 'shared/table/planted.ts', refused: '../ports/clock', permitted: '../domain/levels' }],
  'shared/support': [
    { file: 'shared/support/planted.ts', refused: '../observability/logger', permitted: '../ports/clock' },
  ],
  'shared/observability': [
    { file: 'shared/observability/planted.ts', refused: '../domain/levels', permitted: './metrics' },
  ],
  'shared/adapters': [
    { file: 'shared/adapters/planted.ts', refused: '../http/api-error', permitted: '../support/exact-json' },
    { file: 'shared/adapters/sqs/planted.ts', refused: '../../resets/flush', permitted: '../../ports/reset-queue' },
  ],
  'shared/api': [{ file: 'shared/api/planted.ts', refused: '../auth/credentials', permitted: './session-cookie' }],
  'shared/http': [{ file: 'shared/http/planted.ts', refused: '../auth/credentials', permitted: '../api/error-codes' }],
  'shared/auth': [
    { file: 'shared/auth/planted.ts', refused: '../pipeline/family-handler', permitted: '../http/parameters' },
  ],
  'shared/delivery, shared/resets, shared/catalog, shared/webhooks': [
    {
      file: 'shared/delivery/planted.ts',
      refused: '../http/api-error',
      permitted: '../adapters/dynamodb/counter-store',
    },
    { file: 'shared/resets/planted.ts', refused: '../runtime/dependencies', permitted: '../ports/reset-queue' },
    { file: 'shared/catalog/planted.ts', refused: '../auth/authenticate', permitted: '../table/keys' },
    { file: 'shared/webhooks/planted.ts', refused: '../handlers/access-checks', permitted: '../observability/metrics' },
  ],
  'shared/runtime': [
    {
      file: 'shared/runtime/planted.ts',
      refused: '../handlers/limit-operations',
      permitted: '../adapters/sqs/sqs-reset-queue',
    },
  ],
  'shared/pipeline': [
    {
      file: 'shared/pipeline/planted.ts',
      refused: '../adapters/dynamodb/table-store',
      permitted: '../auth/authenticate',
    },
  ],
  'shared/handlers': [
    { file: 'shared/handlers/planted.ts', refused: '../auth/authenticate', permitted: '../pipeline/family-handler' },
  ],
  'functions/<family>': [
    {
      file: 'functions/auth/planted.ts',
      refused: '../authorizer/handler',
      permitted: '../../shared/adapters/dynamodb/table-store',
    },
  ],
  'infra/cdk': [
    {
      file: 'infra/cdk/planted.ts',
      refused: '../../shared/adapters/dynamodb/table-store',
      permitted: '../../shared/table/keys',
    },
  ],
  scripts: [
    { file: 'scripts/planted.ts', refused: '../infra/local/local-service', permitted: '../infra/cdk/bundling' },
  ],
  'infra/local': [{ file: 'infra/local/planted.ts', permitted: '../../functions/auth/handler' }],
  bench: [{ file: 'bench/planted.ts', permitted: '../infra/local/local-service' }],
  test: [{ file: 'test/planted.ts', permitted: '../infra/local/local-service' }],
};

const fixturesOf = (row: LayoutRow) => FIXTURES[rowName(row)] ?? [];

/** The rows of the Layout table in docs/architecture.md: the folders of the first column, those the last one names. */
const documentedLayout = (): LayoutRow[] => {
  const text = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const start = text.indexOf('\n## Layout\n');
  const section = text.slice(start, text.indexOf('\n## ', start + 1));
  const foldersNamed = (cell: string) => [...cell.matchAll(/`([^`]+)\/`/g)].map((match) => match[1]!);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split('|').slice(1, -1);
      const folders = foldersNamed(cells[0]!);
      const mayImport = cells.at(-1)!.trim();
      return {
        folders,
        mayImport: mayImport.startsWith('anything')
          ? 'anything'
          : foldersNamed(mayImport).filter((folder) => !folders.includes(folder)),
      };
    });
};

const sorted = (row: LayoutRow): LayoutRow => ({
  folders: row.folders,
  mayImport: row.mayImport === 'anything' ? row.mayImport : [...row.mayImport].sort(),
});

const subfolders = (parent: string): string[] =>
  readdirSync(join(ROOT, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${parent}/${entry.name}`);

describe('npm run lint keeps the arrows of the layout', () => {
  it('enforces the table of docs/architecture.md as written, a row for every folder', () => {
    expect(LAYOUT.map(sorted)).toEqual(documentedLayout().map(sorted));
    const inRows = LAYOUT.flatMap((row) => row.folders);
    for (const folder of [...subfolders('shared'), ...subfolders('infra')]) expect(inRows, folder).toContain(folder);
    expect(inRows).toContain('functions/<family>');
  });

  it('keeps no file beside the folders of shared/, functions/ and infra/, where no row would cover it', () => {
    for (const parent of ['shared', 'functions', 'infra'])
      expect(
        readdirSync(join(ROOT, parent), { withFileTypes: true })
          .filter((entry) => !entry.isDirectory())
          .map((entry) => entry.name),
        parent,
      ).toEqual([]);
  });

  it('lets a row import only rows above it, so that no arrow runs back up', () => {
    LAYOUT.forEach((row, index) => {
      if (row.mayImport === 'anything') return;
      const above = LAYOUT.slice(0, index).flatMap((earlier) => earlier.folders);
      for (const allowed of row.mayImport)
        expect(
          above.some((folder) => folder === allowed || folder.startsWith(`${allowed}/`)),
          `${rowName(row)} may import ${allowed}`,
        ).toBe(true);
    });
  });

  it('has a fixture for every folder of every row', () => {
    for (const row of LAYOUT) {
      const depth = row.folders[0]!.split('/').length;
      const planted = new Set(fixturesOf(row).map(({ file }) => file.split('/').slice(0, depth).join('/')));
      expect([...planted], rowName(row)).toEqual(row.folders.map((folder) => folder.replace('<family>', 'auth')));
    }
  });

  it('refuses, for every row, an import the row does not allow, naming the row', async () => {
    const restricted = LAYOUT.filter((row) => row.mayImport !== 'anything');
    const cases = restricted.flatMap((row) => fixturesOf(row).map((fixture) => ({ row, ...fixture })));
    const results = await Promise.all(cases.map(({ file, refused }) => lintImport(file, refused!)));
    cases.forEach(({ row, file, refused }, index) => {
      const refusals = results[index]!.filter((message) => message.ruleId === 'import/no-restricted-paths');
      expect(
        refusals.map((message) => message.message),
        `${file} importing ${refused}`,
      ).toEqual([expect.stringContaining(ruleOf(row))]);
    });
  });

  it('refuses the local runtime to every folder but its own, bench and test', async () => {
    const cases = LAYOUT.filter((row) => row.mayImport !== 'anything').flatMap(fixturesOf);
    const results = await Promise.all(
      cases.map(({ file }) => lintImport(file, relative(dirname(file), 'infra/local/local-service'))),
    );
    results.forEach((messages, index) =>
      expect(
        messages.map((message) => message.ruleId),
        cases[index]!.file,
      ).toContain('import/no-restricted-paths'),
    );
  });

  it('permits, for every row, an import the row allows', async () => {
    const cases = LAYOUT.flatMap(fixturesOf);
    const results = await Promise.all(cases.map(({ file, permitted }) => lintImport(file, permitted)));
    results.forEach((messages, index) =>
      expect(messages, `${cases[index]!.file} importing ${cases[index]!.permitted}`).toEqual([]),
    );
  });

  it('fails when the domain imports a package: no AWS SDK, and no validation library (events are parsed by hand)', async () => {
    for (const source of ['@aws-sdk/client-dynamodb', 'zod', 'zod/mini'])
      expect(
        (await lintImport('shared/domain/planted.ts', source)).map((message) => message.ruleId),
        source,
      ).toContain('no-restricted-imports');
    expect(await lintImport('shared/domain/planted.ts', 'node:crypto')).toEqual([]);
    expect(await lintImport('shared/domain/planted.ts', 'ipaddr.js')).toEqual([]);
  });
});
