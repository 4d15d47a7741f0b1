import { afterAll, afterEach, expect } from 'vitest';
import { checkAnswer, type ContractBreach } from './response-contract';
import { judgeExchange, type Exchange, type Verdict } from './request-contract';

/**
 * Every exchange an integration test has with the API through fetch is checked against the OpenAPI document, twice:
 * by our own reading (an undeclared status or a body that does not match its schema) and by Stoplight Prism's
 * validators (request and answer). A test fails on any answer that breaks the document, and on any request the
 * service accepted that the document calls invalid. Requests the service refused are only reported.
 */
const breaches: ContractBreach[] = [];
// judged after the test, so that the validator's work never slows the exchanges a test times
const exchanges: Exchange[] = [];
const refused: Verdict[] = [];
let checked = 0;
const realFetch = globalThis.fetch;

const headersOf = (headers: Headers): Record<string, string> => Object.fromEntries(headers.entries());

globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  const sent = request.clone();
  const response = await realFetch(request);
  const url = new URL(request.url);
  const body = await response.clone().text();
  const breach = checkAnswer(request.method, url, response.status, response.headers.get('content-type') ?? '', body);
  if (breach) breaches.push(breach);
  const exchange: Exchange = {
    method: request.method,
    url,
    headers: headersOf(sent.headers),
    body: await sent.text(),
    status: response.status,
    responseHeaders: headersOf(response.headers),
    responseBody: body,
  };
  exchanges.push(exchange);
  return response;
};

const isAccepted = (verdict: Verdict) => /→ [23]\d\d$/.test(verdict.request);

afterEach(async () => {
  const judged: Verdict[] = [];
  for (const exchange of exchanges.splice(0)) {
    const verdict = await judgeExchange(exchange);
    if (verdict) judged.push(verdict);
  }
  checked += judged.length;
  refused.push(...judged.filter((verdict) => !isAccepted(verdict) && verdict.requestProblems.length > 0));
  const found = [
    ...breaches.splice(0),
    ...judged.flatMap(({ request, responseProblems }) =>
      responseProblems.map((problem) => ({ request, problem: `Prism, answer: ${problem}` })),
    ),
    ...judged
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
