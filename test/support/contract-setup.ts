import { afterEach, expect } from 'vitest';
import { checkAnswer, type ContractBreach } from './response-contract';

/**
 * Every answer an integration test receives from the API through fetch is checked against the OpenAPI document:
 * an undeclared status or a body that does not match its schema fails the test that received it.
 */
const breaches: ContractBreach[] = [];
const realFetch = globalThis.fetch;

globalThis.fetch = async (input, init) => {
  const response = await realFetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const body = await response.clone().text();
  const breach = checkAnswer(method, url, response.status, response.headers.get('content-type') ?? '', body);
  if (breach) breaches.push(breach);
  return response;
};

afterEach(() => {
  const found = breaches.splice(0);
  expect(found, 'answers that do not match the OpenAPI document').toEqual([]);
});
