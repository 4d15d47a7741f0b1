import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/http/api-error';
import { parseForm, readParameters } from '../../../shared/http/parameters';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

const status = (run: () => unknown): number | undefined => {
  try {
    run();
  } catch (error) {
    return error instanceof ApiError ? error.statusCode : -1;
  }
  return undefined;
};

describe('request parameters', () => {
  it('reads the query string and a form body, the body winning on conflict', () => {
    const parameters = readParameters({
      multiValueQueryStringParameters: { a: ['from-query'], b: ['only-query'] },
      headers: FORM,
      body: 'a=from-body&c=only-body',
    });
    expect(parameters.get('a')).toBe('from-body');
    expect(parameters.get('b')).toBe('only-query');
    expect(parameters.get('c')).toBe('only-body');
    expect(parameters.names().sort()).toEqual(['a', 'b', 'c']);
  });

  it('accepts arrays repeated or comma-separated, and both mixed', () => {
    expect(readParameters({ headers: FORM, body: 'ids=1&ids=2' }).list('ids')).toEqual(['1', '2']);
    expect(readParameters({ headers: FORM, body: 'ids=1%2C2' }).list('ids')).toEqual(['1', '2']);
    expect(readParameters({ headers: FORM, body: 'ids=1,2&ids=3' }).list('ids')).toEqual(['1', '2', '3']);
    expect(readParameters({ multiValueQueryStringParameters: { ids: ['4,5', ''] } }).list('ids')).toEqual(['4', '5']);
  });

  it('falls back to single-value query parameters', () => {
    expect(readParameters({ queryStringParameters: { x: '1' } }).get('x')).toBe('1');
  });

  it('decodes + as space and percent-escapes, and base64 bodies', () => {
    expect(parseForm('name=a+b%21')).toEqual(new Map([['name', ['a b!']]]));
    const encoded = Buffer.from('x=%C3%A9').toString('base64');
    expect(readParameters({ headers: FORM, body: encoded, isBase64Encoded: true }).get('x')).toBe('é');
  });

  it('refuses a malformed form body with 400', () => {
    expect(status(() => readParameters({ headers: FORM, body: 'a=%ZZ' }))).toBe(400);
    expect(status(() => readParameters({ headers: FORM, body: '%E0%A4%A=1' }))).toBe(400);
  });

  it('refuses a body that is not a form with 400 naming the expected type', () => {
    let caught: unknown;
    try {
      readParameters({ headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).statusCode).toBe(400);
    expect((caught as ApiError).errors?.['Content-Type']).toMatch(/x-www-form-urlencoded/);
  });

  it('accepts a form content type with a charset, in any case', () => {
    expect(
      readParameters({
        headers: { 'CONTENT-TYPE': 'Application/X-WWW-Form-Urlencoded; charset=UTF-8' },
        body: 'a=1',
      }).get('a'),
    ).toBe('1');
  });

  it('refuses a scalar given twice with different values, and accepts it given twice alike', () => {
    const parameters = readParameters({ headers: FORM, body: 'a=1&a=2&b=3&b=3' });
    expect(status(() => parameters.get('a'))).toBe(400);
    expect(parameters.get('b')).toBe('3');
  });
});
