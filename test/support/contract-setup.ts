import { afterAll, afterEach, expect, inject } from 'vitest';
import type { Judgement, SentExchange } from './contract-server';
import type { Verdict } from './request-contract';

/**
 * Every exchange an integration test has with the API through fetch is checked against the OpenAPI document, twice:
 * by our own reading (an undeclared status or a body that does not match its schema) and by Stoplight Prism's
 * validators (request and answer). A test fails on any answer that breaks the document, and on any request the
 * service accepted that the document calls invalid. Requests the service refused are only reported. The checking
 * itself is done by the run's contract server (`contract-server.ts`), which holds the only copy of the validators.
 */
// judged after the test, so that the validator's work never slows the exchanges a test times
const exchanges: SentExchange[] = [];
const refused: Verdict[] = [];
let checked = 0;
/** The platform's fetch, kept on first load: a worker that runs several files evaluates this setup for each. */
const REAL_FETCH = Symbol.for('contract-setup.realFetch');
const kept = globalThis as unknown as Record<symbol, typeof fetch | undefined>;
const realFetch = (kept[REAL_FETCH] ??= globalThis.fetch);

const headersOf = (headers: Headers): Record<string, string> => Object.fromEntries(headers.entries());

globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  const sent = request.clone();
  const response = await realFetch(request);
  exchanges.push({
    method: request.method,
    url: request.url,
    headers: headersOf(sent.headers),
    body: await sent.text(),
    status: response.status,
    responseHeaders: headersOf(response.headers),
    responseBody: await response.clone().text(),
  });
  return response;
};

const judged = async (sent: SentExchange[]): Promise<Judgement> => {
  const answer = await realFetch(inject('contractServer'), { method: 'POST', body: JSON.stringify(sent) });
  if (answer.status !== 200) throw new Error(`the contract server failed: ${await answer.text()}`);
  return (await answer.json()) as Judgement;
};

const isAccepted = (verdict: Verdict) => /→ [23]\d\d$/.test(verdict.request);

afterEach(async () => {
  if (exchanges.length === 0) return;
  const { breaches, verdicts } = await judged(exchanges.splice(0));
  checked += verdicts.length;
  refused.push(...verdicts.filter((verdict) => !isAccepted(verdict) && verdict.requestProblems.length > 0));
  const found = [
    ...breaches,
    ...verdicts.flatMap(({ request, responseProblems }) =>
      responseProblems.map((problem) => ({ request, problem: `Prism, answer: ${problem}` })),
    ),
    ...verdicts
      .filter(isAccepted)
      .flatMap(({ request, requestProblems }) =>
        requestProblems.map((problem) => ({ request, problem: `Prism, accepted request: ${problem}` })),
      ),
  ];
  expect(found, 'exchanges that do not match the OpenAPI document').toEqual([]);
});

afterAll(() => {
  if (checked === 0) return;
  // refused requests the document also calls invalid: the negative tests, reported and never failed
  const detail = process.env.CONTRACT_REPORT
    ? refused.map((verdict) => `\n  ${verdict.request}: ${verdict.requestProblems.join('; ')}`).join('')
    : '';
  console.info(
    `OpenAPI request check (Prism): ${checked} exchanges, ${refused.length} refused requests the document calls invalid too${detail}`,
  );
});
