import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { API_KEY_PLACEHOLDER, DEMO_API_KEY } from '../../shared/api/openapi/code-samples';
import { buildReference } from '../../infra/local/local-server';
import { useTestService } from '../support/local-service';

const run = promisify(execFile);
const ctx = useTestService();

interface Sample {
  label: string;
  authenticated: boolean;
  source: string;
}

/** The served document's samples in one language, in the document's order. */
const samplesOf = async (lang: string): Promise<Sample[]> => {
  const document = (await (await fetch(`${ctx.service.url}/rest-api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { security: unknown[]; 'x-codeSamples': { lang: string; source: string }[] }>>;
  };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      label: `${method.toUpperCase()} ${path}`,
      authenticated: operation.security.length > 0,
      source: operation['x-codeSamples'].find((sample) => sample.lang === lang)!.source,
    })),
  );
};

/**
 * Answers a sample may give as pasted, with why: it names what only a real exchange makes (a login token, a mailed
 * reset token, the id an earlier add gave a per-action limit or a create a webhook subscription), which the service
 * may not know.
 */
const EXPECTED_REFUSALS: Record<string, number> = {
  'GET /rest-api/auth/{authToken}/login.do': 404,
  'POST /rest-api/auth/reset-password.do': 404,
  'POST /rest-api/per-action/delete.do': 404,
  'POST /rest-api/webhooks/{webhookId}/update.do': 404,
  'DELETE /rest-api/webhooks/{webhookId}.do': 404,
  'POST /rest-api/webhooks/{webhookId}/rotate-secret.do': 404,
  'POST /rest-api/webhooks/{webhookId}/enable.do': 404,
};

const judge = (sample: Sample, status: number): string | undefined => {
  if (status >= 200 && status < 300) return undefined;
  if (EXPECTED_REFUSALS[sample.label] === status) return undefined;
  return `${sample.label}: ${status}`;
};

describe("the local reference's code samples, run as pasted against the server that serves them", () => {
  it('carry the demo key on the demo catalog, and the placeholder on any other, as on the deployed page', async () => {
    for (const lang of ['Shell', 'TypeScript'])
      for (const sample of await samplesOf(lang)) {
        expect(sample.source, sample.label).not.toContain(API_KEY_PLACEHOLDER);
        if (sample.authenticated) expect(sample.source, sample.label).toContain(DEMO_API_KEY);
      }
    const otherCatalog = buildReference(ctx.service.url, { demoCatalog: false });
    const document = (await otherCatalog['/rest-api/openapi.json']!()).body;
    expect(document).toContain(API_KEY_PLACEHOLDER);
    expect(document).not.toContain(DEMO_API_KEY);
  });

  it('curl: every sample answers as documented on the demo data, whatever ran before it', async () => {
    // last first: a change of limits before the sample that sets them, as a reader may paste them
    const samples = (await samplesOf('Shell')).reverse();
    expect(samples.length).toBeGreaterThan(30);
    for (const sample of samples) expect(sample.source, sample.label).toContain(ctx.service.url);
    // one shell runs them in turn, each in a subshell, as pasted into one terminal (a shell started from this worker
    // for each sample cost more than its request); -e: a sample that fails to run fails the test
    const script = samples.map((sample) => `(\n${sample.source} -o /dev/null -w '%{http_code}\\n'\n)`).join('\n');
    const { stdout } = await run('bash', ['-e', '-c', script]);
    const statuses = stdout.trim().split('\n').map(Number);
    expect(statuses).toHaveLength(samples.length);
    const failures = samples.flatMap((sample, index) => judge(sample, statuses[index]!) ?? []);
    expect(failures).toEqual([]);
  }, 120_000);

  it('TypeScript: every sample runs with openapi-fetch and answers as documented', async () => {
    const samples = await samplesOf('TypeScript');
    const calls = samples.map((sample) => {
      const body = sample.source
        .split('\n')
        .filter((line) => !line.startsWith('import '))
        .join('\n')
        .replace('const { data, error } = await ', 'return await ');
      return `  ${JSON.stringify(sample.label)}: async () => {\n${body}\n  },`;
    });
    const module = `import createClient from 'openapi-fetch';\n\nexport const calls: Record<string, () => Promise<{ response: Response }>> = {\n${calls.join('\n')}\n};\n`;
    await mkdir('test/typed-client/generated', { recursive: true });
    const file = resolve(`test/typed-client/generated/reference-samples-${process.pid}.ts`);
    await writeFile(file, module);
    const { calls: runnable } = (await import(pathToFileURL(file).href)) as {
      calls: Record<string, () => Promise<{ response: Response }>>;
    };
    const failures: string[] = [];
    for (const sample of samples) {
      const { response } = await runnable[sample.label]!();
      const failure = judge(sample, response.status);
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
