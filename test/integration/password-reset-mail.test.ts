import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHandler } from '../../functions/auth/handler';
import { buildProxyEvent, lambdaContext } from '../../infra/local/api-gateway-event';
import { SesMailer } from '../../shared/adapters/ses/ses-mailer';
import { ROUTES } from '../../shared/api/route-table';
import { scanTable, useTestService } from '../support/local-service';

/**
 * forgot.do with SES failing, on the service's table: the auth function as Lambda runs it, with the SDK's SES client
 * mocked (SES has no local engine).
 */
const ctx = useTestService();
const ses = mockClient(SESv2Client);
const FORGOT = ROUTES.find((route) => route.operation === 'auth.forgot')!;

afterEach(() => {
  ses.reset();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const forgot = async (email: string): Promise<{ status: number; stdout: string }> => {
  vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'auth');
  vi.stubEnv('LOG_LEVEL', 'info');
  let stdout = '';
  const capture = (chunk: unknown) => {
    stdout += String(chunk);
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  const handler = createHandler({
    ...ctx.service.dependencies,
    mailer: new SesMailer(new SESv2Client({ region: 'us-east-1' }), 'no-reply@example.com'),
  });
  const event = buildProxyEvent(
    {
      method: 'POST',
      url: new URL(`${ctx.service.url}${FORGOT.path}`),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email }).toString(),
      sourceIp: '127.0.0.1',
      receivedAt: ctx.service.clock.now(),
      requestId: 'forgot-test',
    },
    FORGOT,
  );
  const result = await handler(event, lambdaContext('auth', 10_000) as Context);
  vi.restoreAllMocks();
  return { status: result.statusCode, stdout };
};

/** The metric lines (Embedded Metric Format) naming `name`. */
const metricValues = (stdout: string, name: string): number[] =>
  stdout
    .split('\n')
    .filter((line) => line.includes('"_aws"') && line.includes(`"${name}"`))
    .map((line) => (JSON.parse(line) as Record<string, number>)[name]!);

const rateEntries = async () =>
  (await scanTable(ctx.service)).filter((item) => String(item.PK).startsWith('RESETRATE#'));

describe('a password-reset mail that SES refuses', () => {
  it('is counted as PasswordResetMailFailures, writes no rate-limit entry, and lets the owner ask again at once', async () => {
    ses.on(SendEmailCommand).rejects(Object.assign(new Error('Daily sending quota exceeded'), { name: 'Throttling' }));
    const failed = await forgot('alice@example.com');
    expect(failed.status).toBe(200);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    expect(metricValues(failed.stdout, 'PasswordResetMailFailures')).toEqual([1]);
    expect(await rateEntries()).toEqual([]);

    ses.reset();
    ses.on(SendEmailCommand).resolves({ MessageId: 'sent' });
    const retried = await forgot('alice@example.com');
    expect(retried.status).toBe(200);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    expect(metricValues(retried.stdout, 'PasswordResetMailFailures')).toEqual([]);
    expect(await rateEntries()).toHaveLength(1);
  });

  it('writes no rate-limit entry for an address that gets no mail', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'sent' });
    const before = await rateEntries();
    expect((await forgot('nobody@example.com')).status).toBe(200);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(await rateEntries()).toEqual(before);
  });
});
