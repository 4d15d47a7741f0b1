import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContractServer, type Judgement, type SentExchange } from '../../support/contract-server';

const JSON_TYPE = 'application/json; charset=utf-8';
const exchange = (path: string, status: number, responseBody: string): SentExchange => ({
  method: 'GET',
  url: `http://127.0.0.1:3000${path}`,
  headers: { 'x-api-key': 'demo-key-0001' },
  body: '',
  status,
  responseHeaders: { 'content-type': JSON_TYPE, 'x-request-id': 'r-1' },
  responseBody,
});

describe('the contract server (one copy of the validators for a whole run)', () => {
  let server: Awaited<ReturnType<typeof startContractServer>>;
  beforeAll(async () => {
    server = await startContractServer();
    await server.loaded;
  });
  afterAll(() => server.stop());

  const judged = async (body: string) => {
    const answer = await fetch(server.url, { method: 'POST', body });
    return { status: answer.status, text: await answer.text() };
  };

  it("finds what each exchange of a batch breaks, by our reading and by Prism's", async () => {
    const history = '/rest-api/campaign/100/limits/history.do';
    const answer = await judged(
      JSON.stringify([
        exchange(history, 200, '{"success":true,"changes":[]}'),
        exchange(history, 418, '{}'),
        exchange('/_local/health', 200, '{}'),
      ]),
    );
    expect(answer.status).toBe(200);
    const { breaches, verdicts } = JSON.parse(answer.text) as Judgement;
    expect(breaches).toHaveLength(1);
    expect(breaches[0]).toMatchObject({
      request: `GET ${history} → 418`,
      problem: expect.stringMatching(/418 is not declared/),
    });
    expect(verdicts.map(({ request }) => request)).toEqual([`GET ${history} → 200`, `GET ${history} → 418`]);
    expect(verdicts[0]!.responseProblems).toEqual([]);
    expect(verdicts[1]!.responseProblems).not.toEqual([]);
  });

  it('answers 500 with the reason when a batch cannot be read, so the test that sent it fails', async () => {
    const answer = await judged('not json');
    expect(answer.status).toBe(500);
    expect(answer.text).toMatch(/JSON/);
  });
});
