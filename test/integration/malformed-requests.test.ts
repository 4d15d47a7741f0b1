import { describe, expect, it, vi } from 'vitest';

// before any module of the service loads: its logger takes its level once, as in Lambda (debug: the JSON access line)
vi.hoisted(() => {
  process.env.LOG_LEVEL = 'debug';
});
import { captureOutput } from '../support/captured-output';
import { useTestService } from '../support/local-service';
import { hangUpMidRequest, rawExchange, rawRequest } from '../support/raw-http';

const ctx = useTestService();
const key = { 'X-Api-Key': 'demo-key-0001' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Status line, headers (lower-case names) and JSON body of a raw answer. */
const parseAnswer = (text: string) => {
  const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) as Record<string, unknown> };
};

describe('requests the local server cannot parse', () => {
  it('answers oversized headers 431 with the JSON envelope and an X-Request-Id', async () => {
    const answer = await rawRequest(ctx.service.url, 'GET', '/rest-api/campaign/100/limits.do', {
      ...key,
      'X-Padding': 'x'.repeat(20_000),
    });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, code: 'HEADERS_TOO_LARGE' });
    expect(String(answer.headers['x-request-id'])).toMatch(UUID);
  });

  it('answers what is not HTTP 400 with the JSON envelope and an X-Request-Id', async () => {
    const answer = parseAnswer(
      await rawExchange(ctx.service.url, 'GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'),
    );
    expect(answer).toMatchObject({ status: 400, body: { success: false, code: 'INVALID_PARAMETER' } });
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['x-request-id']).toMatch(UUID);
  });
});

describe('malformed percent-escapes in the query', () => {
  it('are a 400 naming the parameter: not two hex digits, or not UTF-8', async () => {
    for (const [query, parameter] of [
      ['timezoneOffset=%zz', 'timezoneOffset'],
      ['timezoneOffset=6%', 'timezoneOffset'],
      ['timezoneOffset=%ff', 'timezoneOffset'],
      ['time%zzone=1', 'time%zzone'],
    ]) {
      const answer = await rawRequest(ctx.service.url, 'GET', `/rest-api/campaign/100/limits.do?${query}`, key);
      expect(answer.status, query).toBe(400);
      expect(JSON.parse(answer.body), query).toMatchObject({
        code: 'INVALID_PARAMETER',
        errors: { [parameter!]: expect.stringContaining('percent') },
      });
    }
  });

  it('are read as sent when well formed', async () => {
    const answer = await rawRequest(
      ctx.service.url,
      'GET',
      '/rest-api/campaign/100/limits.do?timezoneOffset=%36%30',
      key,
    );
    expect(answer.status).toBe(200);
  });
});

describe('a client that hangs up', () => {
  const written = captureOutput();

  it('is logged as aborted, not as a failure of the server', async () => {
    await hangUpMidRequest(
      ctx.service.url,
      'POST /rest-api/campaign/100/limits/set.do HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: demo-key-0001\r\n' +
        'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ndailyClicksLimit=',
    );
    await vi.waitFor(() => expect(written()).toContain('aborted'), { timeout: 2000 });
    const lines = written()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line.level === 'ERROR' || line.status === 500)).toEqual([]);
    expect(lines).toContainEqual(
      expect.objectContaining({ route: '/rest-api/campaign/{campaignId}/limits/set.do', aborted: true }),
    );
  });
});
