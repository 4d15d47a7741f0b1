import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const PLANTED = [
  "export const put = { ConditionExpression: 'attribute_not_exists(PK)' };",
  "export const query = { 'KeyConditionExpression': 'PK = :pk', ExpressionAttributeValues: { ':pk': 'A' } };",
  "export const names = { ExpressionAttributeNames: { '#a': 'a' }, UpdateExpression: 'REMOVE #a' };",
];

/** The rules a file at `filePath` holding `code` breaks, with the project's own configuration. */
const ruleIdsFor = async (filePath: string, code: string): Promise<string[]> => {
  const [result] = await new ESLint().lintText(code, { filePath });
  return result!.messages.map((message) => String(message.ruleId));
};

describe('npm run lint keeps DynamoDB expressions in the builder, shared/adapters/dynamodb/expressions', () => {
  it('fails when a function, shared code outside the builder (a store too) or a script writes an expression field', async () => {
    for (const filePath of [
      'functions/auth/planted.ts',
      'shared/handlers/planted.ts',
      'shared/adapters/dynamodb/planted.ts',
      'scripts/planted.ts',
    ])
      for (const code of PLANTED)
        expect(await ruleIdsFor(filePath, code), `${filePath}: ${code}`).toContain('no-restricted-syntax');
  });

  it('lets the builder write them, and anyone read them', async () => {
    for (const code of PLANTED)
      expect(await ruleIdsFor('shared/adapters/dynamodb/expressions/planted.ts', code)).toEqual([]);
    expect(
      await ruleIdsFor(
        'scripts/planted.ts',
        'export const text = (request: { UpdateExpression?: string }) => request.UpdateExpression;\n',
      ),
    ).toEqual([]);
  });
});
