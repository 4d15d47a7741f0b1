import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../shared/api/openapi/openapi-document';
import { cachedByContent, fileHash } from '../support/content-cache';
import { useTestService } from '../support/local-service';

const run = promisify(execFile);
/** What decides tsc's verdict beside the files it reads: its version and the two configuration files. */
const TSC_CONFIGURATION = ['node_modules/typescript/package.json', 'tsconfig.json', 'test/typed-client/tsconfig.json'];
const ctx = useTestService();

/**
 * `tsc` on the generated client and the calls, or its verdict of the last run when it would read the same files:
 * only a pass is kept. Unused `@ts-expect-error` lines fail too: the document must keep rejecting the mistakes.
 */
const typeCheck = () =>
  cachedByContent('typed-client-tsc', TSC_CONFIGURATION.map(fileHash), async () => {
    const tsc = ['node_modules/typescript/bin/tsc', '-p', 'test/typed-client/tsconfig.json', '--listFiles'];
    const { stdout } = await run(process.execPath, tsc).catch((error: { stdout: string }) => {
      throw new Error(`the generated client does not type-check:\n${error.stdout}`);
    });
    return { value: true, inputs: stdout.split('\n').filter(Boolean) };
  });

describe('a client generated from the document (openapi-typescript + openapi-fetch)', () => {
  it('type-checks, catches misuse at compile time, and drives the service as written', async () => {
    const types = astToString(await openapiTS(buildOpenApiDocument(ctx.service.url) as never));
    await mkdir('test/typed-client/generated', { recursive: true });
    await writeFile('test/typed-client/generated/api.ts', types);
    await typeCheck();

    // imported by its path at run time: the project's own type check never sees the generated file
    const calls = pathToFileURL(resolve('test/typed-client/calls.ts')).href;
    const { runCalls } = (await import(calls)) as {
      runCalls: (
        baseUrl: string,
        apiKey: string,
      ) => Promise<
        Record<'set' | 'read' | 'refused' | 'reset' | 'bulk' | 'commaBulk' | 'querySet', Record<string, unknown>>
      >;
    };
    const result = await runCalls(ctx.service.url, 'demo-key-0001');
    expect(result.set).toEqual({ status: 200, limit: 1000, pacing: true });
    expect(result.read).toEqual({ status: 200, budget: 250.5 });
    expect(result.refused).toMatchObject({
      status: 400,
      code: 'INVALID_PARAMETER',
      errors: { dailyImpressionsLimit: expect.any(String) },
    });
    expect(result.reset).toEqual({ status: 200, counters: ['DAILY_IMPRESSIONS', 'TOTAL_REVENUE'] });
    expect(result.bulk.status).toBe(200);
    expect(JSON.stringify(result.bulk.data)).toContain('"campaignId":100');
    expect(result.commaBulk).toEqual(result.bulk);
    expect(result.querySet).toEqual({
      status: 200,
      url: expect.stringMatching(/set\.do\?dailyClicksLimit=50&evenPacing=yes$/),
      clicks: 50,
      pacing: true,
    });
  }, 60_000);
});
