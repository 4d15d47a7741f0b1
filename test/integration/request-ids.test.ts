import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiClient, postJson } from '../support/http';
import { useTestService } from '../support/local-service';

const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');
const alice = () => apiClient(ctx.service.url, 'alice-key-0001');

afterEach(async () => {
  vi.restoreAllMocks();
  await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [] });
});

describe('request ids', () => {
  it('name every answer, the gateway-made ones too, one id per request', async () => {
    const answers = [
      await demo().get('/rest-api/campaign/100/limits.do'),
      await demo().get('/rest-api/campaign/abc/limits.do'),
      await fetch(`${ctx.service.url}/rest-api/campaign/100/limits.do`),
      await fetch(`${ctx.service.url}/rest-api/nowhere.do`),
      await fetch(`${ctx.service.url}/rest-api/campaign/100/limits.do`, { method: 'PUT' }),
    ];
    const ids = answers.map((answer) => answer.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reach the body of a 5xx, the same as the header', async () => {
    const { writesSeen } = (await (await fetch(`${ctx.service.url}/_local/faults`)).json()) as { writesSeen: number };
    await postJson(`${ctx.service.url}/_local/faults`, {
      failWrites: Array.from({ length: 10 }, (_, index) => writesSeen + index + 1),
    });
    const response = await demo().post('/rest-api/campaign/100/limits/set.do', { dailyClicksLimit: '5' });
    expect(response.status).toBe(503);
    const body = (await response.json()) as { requestId: string; code: string };
    expect(body).toMatchObject({ code: 'SERVICE_BUSY', requestId: response.headers.get('x-request-id') });
  });
});

describe('error codes', () => {
  it('tell each kind of failure apart, beside the fields that were there before', async () => {
    const codeOf = async (response: Response) => ((await response.json()) as { code: string }).code;
    expect(await codeOf(await demo().post('/rest-api/campaign/100/limits/set.do', { dailyClicksLimit: '-1' }))).toBe(
      'INVALID_PARAMETER',
    );
    expect(await codeOf(await fetch(`${ctx.service.url}/rest-api/campaign/100/limits.do`))).toBe('CREDENTIALS_MISSING');
    expect(await codeOf(await alice().get('/rest-api/site/20/limits.do'))).toBe('NO_ACCESS');
    await demo().post('/rest-api/banner/1001/limits/set.do', { totalConversionsLimit: '9' });
    const refused = await alice().post('/rest-api/banner/1001/limits/reset.do', { limitCounters: 'ALL' });
    expect(await refused.json()).toMatchObject({ code: 'PERMISSION_REQUIRED', permission: expect.any(String) });
    expect(await codeOf(await demo().get('/rest-api/campaign/99999/limits.do'))).toBe('NOT_FOUND');
    expect(await codeOf(await demo().post('/rest-api/campaign/101/limits/update.do', { dailyClicksLimit: '1' }))).toBe(
      'LIMITS_NOT_SET',
    );
    expect(await codeOf(await fetch(`${ctx.service.url}/rest-api/campaign/100/limits.do`, { method: 'PUT' }))).toBe(
      'METHOD_NOT_ALLOWED',
    );
  });
});
