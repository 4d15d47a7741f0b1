import { describe, expect, it } from 'vitest';
import { judgeExchange, type Exchange } from '../../support/request-contract';

const form = 'application/x-www-form-urlencoded';
const exchange = (overrides: Omit<Partial<Exchange>, 'url'> & { url: string }): Exchange => ({
  method: 'POST',
  headers: { 'content-type': form, 'x-api-key': 'demo-key-0001' },
  body: '',
  status: 200,
  responseHeaders: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1' },
  responseBody: JSON.stringify({ success: true, message: 'queued', limitCounters: ['DAILY_CLICKS'] }),
  ...overrides,
  url: new URL(`http://127.0.0.1:3000${overrides.url}`),
});
const withBody = (body: string) => ({ body, headers: { 'content-type': form, 'content-length': String(body.length) } });

describe("Prism's verdict on an exchange (the request-side contract check)", () => {
  it('accepts both list forms, in the body or in the query string', async () => {
    const reset = '/rest-api/campaign/100/limits/reset.do';
    for (const sent of [
      exchange({ url: reset, ...withBody('limitCounters=DAILY_CLICKS') }),
      exchange({ url: reset, ...withBody('limitCounters=DAILY_CLICKS,TOTAL_REVENUE') }),
      exchange({ url: reset, ...withBody('limitCounters=DAILY_CLICKS&limitCounters=TOTAL_REVENUE') }),
      exchange({ url: `${reset}?limitCounters=DAILY_CLICKS,TOTAL_REVENUE` }),
      exchange({ url: `${reset}?limitCounters=DAILY_CLICKS&limitCounters=TOTAL_REVENUE`, method: 'DELETE' }),
    ])
      expect(await judgeExchange(sent), `${sent.method} ${sent.url.search} ${sent.body}`).toMatchObject({
        requestProblems: [],
        responseProblems: [],
      });
  });

  it('finds a request the document calls invalid, and an answer it does not declare', async () => {
    const bad = await judgeExchange(
      exchange({ url: '/rest-api/campaign/100/limits/reset.do', ...withBody('limitCounters=DAILY_CLICK') }),
    );
    expect(bad!.requestProblems.join()).toMatch(/limitCounters/);
    const undeclared = await judgeExchange(
      exchange({ url: '/rest-api/campaign/100/limits.do', method: 'GET', status: 418, responseBody: '{}' }),
    );
    expect(undeclared!.responseProblems).not.toEqual([]);
  });

  it('judges no path outside the route table', async () => {
    expect(await judgeExchange(exchange({ url: '/_local/health', method: 'GET' }))).toBeUndefined();
  });
});
