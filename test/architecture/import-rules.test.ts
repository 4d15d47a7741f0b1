import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** Lints `code` as if it were the file at `filePath`, with the project's own configuration. */
const ruleIdsFor = async (filePath: string, code: string): Promise<string[]> => {
  const [result] = await new ESLint().lintText(code, { filePath });
  return result!.messages.map((message) => String(message.ruleId));
};

/** The rules a file at `filePath` breaks by importing `source`. */
const ruleIdsForImport = (filePath: string, source: string): Promise<string[]> =>
  ruleIdsFor(filePath, `import * as planted from '${source}';\nexport const used = planted;\n`);

describe('npm run lint keeps the arrows of the layout', () => {
  it('fails when the domain imports a package: no AWS SDK, and no validation library (events are parsed by hand)', async () => {
    for (const source of ['@aws-sdk/client-dynamodb', 'zod', 'zod/mini'])
      expect(await ruleIdsForImport('shared/domain/planted.ts', source), source).toContain('no-restricted-imports');
  });

  it('fails when the domain imports an adapter or an HTTP module', async () => {
    for (const source of ['../adapters/dynamodb/table-store', '../http/api-error', '../table/keys'])
      expect(await ruleIdsForImport('shared/domain/planted.ts', source), source).toContain(
        'import/no-restricted-paths',
      );
  });

  it('fails when one function imports another function', async () => {
    const ids = await ruleIdsFor(
      'functions/auth/planted.ts',
      "import { handler } from '../authorizer/handler';\nexport const used = handler;\n",
    );
    expect(ids).toContain('import/no-restricted-paths');
  });

  it('fails when the CDK stack imports function or adapter code', async () => {
    for (const source of ['../../functions/auth/handler', '../../shared/adapters/dynamodb/table-store'])
      expect(await ruleIdsForImport('infra/cdk/planted.ts', source), source).toContain('import/no-restricted-paths');
  });

  it('fails when shared code imports the local runtime', async () => {
    const ids = await ruleIdsForImport('shared/handlers/planted.ts', '../../infra/local/local-service');
    expect(ids).toContain('import/no-restricted-paths');
  });

  it('lets a function import the domain and adapters, and the domain import itself and node:crypto', async () => {
    expect(
      await ruleIdsFor(
        'functions/auth/planted.ts',
        "import * as a from '../../shared/domain/levels';\nimport * as b from '../../shared/adapters/dynamodb/table-store';\nexport const used = [a, b];\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIdsFor(
        'shared/domain/planted.ts',
        "import * as a from './levels';\nimport { hash } from 'node:crypto';\nexport const used = [a, hash];\n",
      ),
    ).toEqual([]);
  });
});
