import { describe, expect, it } from 'vitest';
import { checkAnswer } from '../../support/response-contract';

const url = (path: string) => new URL(`http://127.0.0.1:3000${path}`);
const JSON_TYPE = 'application/json; charset=utf-8';

describe('the response contract every integration test is held to', () => {
  it('accepts an answer that matches the document', () => {
    const body = JSON.stringify({ success: true, changes: [] });
    expect(checkAnswer('GET', url('/rest-api/campaign/100/limits/history.do'), 200, JSON_TYPE, body)).toBeUndefined();
  });

  it('refuses a body off its schema, an undeclared status, and an error without its code', () => {
    const path = url('/rest-api/campaign/100/limits/history.do');
    expect(checkAnswer('GET', path, 200, JSON_TYPE, '{"success":true,"changes":"none"}')?.problem).toMatch(/changes/);
    expect(checkAnswer('GET', path, 200, JSON_TYPE, '{"success":true,"changes":[],"extra":1}')?.problem).toMatch(
      /additional properties/,
    );
    expect(checkAnswer('GET', path, 418, JSON_TYPE, '{}')?.problem).toMatch(/418 is not declared/);
    expect(checkAnswer('GET', path, 404, JSON_TYPE, '{"success":false,"message":"x"}')?.problem).toMatch(/code/);
  });

  it('judges only routes of the route table', () => {
    expect(checkAnswer('GET', url('/_local/health'), 200, JSON_TYPE, '{"ok":true}')).toBeUndefined();
  });
});
