import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/http/api-error';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { formBody } from '../../../shared/http/form-body';
import { headerValue, readParameters, type ParameterSource } from '../../../shared/http/parameters';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** What a family handler does: the form-body middleware (guard, then the body parser), then the reader. */
const read = async (source: ParameterSource) => {
  const request = { event: { ...source } as unknown as APIGatewayProxyEvent } as Parameters<
    NonNullable<ReturnType<typeof formBody>['before']>
  >[0];
  await formBody().before?.(request);
  return readParameters(request.event as ParameterSource);
};

const status = async (run: () => unknown): Promise<number | undefined> => {
  try {
    await run();
  } catch (error) {
    return error instanceof ApiError ? error.statusCode : -1;
  }
  return undefined;
};

describe('request parameters', () => {
  it('reads the query string and a form body, the body winning on conflict', async () => {
    const parameters = await read({
      multiValueQueryStringParameters: { a: ['from-query'], b: ['only-query'] },
      headers: FORM,
      body: 'a=from-body&c=only-body',
    });
    expect(parameters.get('a')).toBe('from-body');
    expect(parameters.get('b')).toBe('only-query');
    expect(parameters.get('c')).toBe('only-body');
    expect(parameters.names().sort()).toEqual(['a', 'b', 'c']);
  });

  it('accepts arrays repeated or comma-separated, and both mixed', async () => {
    expect((await read({ headers: FORM, body: 'ids=1&ids=2' })).list('ids')).toEqual(['1', '2']);
    expect((await read({ headers: FORM, body: 'ids=1%2C2' })).list('ids')).toEqual(['1', '2']);
    expect((await read({ headers: FORM, body: 'ids=1,2&ids=3' })).list('ids')).toEqual(['1', '2', '3']);
    expect((await read({ multiValueQueryStringParameters: { ids: ['4,5', ''] } })).list('ids')).toEqual(['4', '5']);
  });

  it('accepts arrays written name[] and name[N], in index order, in the query and the body', async () => {
    expect((await read({ headers: FORM, body: 'ids%5B1%5D=2&ids%5B0%5D=1' })).list('ids')).toEqual(['1', '2']);
    expect(
      (await read({ multiValueQueryStringParameters: { 'limitCounters[]': ['ALL', 'DAILY_CLICKS'] } })).list(
        'limitCounters',
      ),
    ).toEqual(['ALL', 'DAILY_CLICKS']);
    expect((await read({ headers: FORM, body: 'name%5B%5D=x' })).names()).toEqual(['name[]']);
    expect(await status(() => read({ queryStringParameters: { 'campaignIds[x]': '1' } }))).toBe(400);
  });

  it('falls back to single-value query parameters', async () => {
    expect((await read({ queryStringParameters: { x: '1' } })).get('x')).toBe('1');
  });

  it('decodes + as space and percent-escapes, and base64 bodies', async () => {
    expect((await read({ headers: FORM, body: 'name=a+b%21' })).get('name')).toBe('a b!');
    const encoded = Buffer.from('x=%C3%A9').toString('base64');
    expect((await read({ headers: FORM, body: encoded, isBase64Encoded: true })).get('x')).toBe('é');
  });

  it('refuses a malformed form body with 400', async () => {
    expect(await status(() => read({ headers: FORM, body: 'a=%ZZ' }))).toBe(400);
    expect(await status(() => read({ headers: FORM, body: '%E0%A4%A=1' }))).toBe(400);
    expect(await status(() => read({ headers: FORM, body: 'a=%FF' }))).toBe(400);
    expect(
      await status(() => read({ headers: FORM, body: Array.from({ length: 1001 }, (_, i) => `p${i}=1`).join('&') })),
    ).toBe(400);
  });

  it('refuses a body that is not a form with 400 naming the expected type', async () => {
    let caught: unknown;
    try {
      await read({ headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).statusCode).toBe(400);
    expect((caught as ApiError).errors?.['Content-Type']).toMatch(/x-www-form-urlencoded/);
  });

  it('accepts a form content type with a charset, in any case', async () => {
    expect(
      (
        await read({
          headers: { 'CONTENT-TYPE': 'Application/X-WWW-Form-Urlencoded; charset=UTF-8' },
          body: 'a=1',
        })
      ).get('a'),
    ).toBe('1');
  });

  it('refuses a scalar given twice with different values, and accepts it given twice alike', async () => {
    const parameters = await read({ headers: FORM, body: 'a=1&a=2&b=3&b=3' });
    expect(await status(() => parameters.get('a'))).toBe(400);
    expect(parameters.get('b')).toBe('3');
  });
});

describe('a header', () => {
  it('is found whatever case the client wrote, the first of several spellings winning', () => {
    const headers = { 'X-API-KEY': 'first', 'x-api-key': 'second', 'x-api-keys': 'other', Origin: 'https://ui' };
    expect(headerValue(headers, 'x-api-key')).toBe('first');
    expect(headerValue(headers, 'ORIGIN')).toBe('https://ui');
    expect(headerValue(headers, 'cookie')).toBeUndefined();
    expect(headerValue(null, 'cookie')).toBeUndefined();
  });

  it('is read from the body only when there is one: a bodiless request is left as it came', async () => {
    const request = { event: { headers: FORM, body: null } as unknown as APIGatewayProxyEvent };
    await formBody().before?.(request as never);
    expect(request.event.body).toBeNull();
    expect(readParameters(request.event as ParameterSource).names()).toEqual([]);
  });

  it('refuses a query whose escapes API Gateway could not decode, naming the parameter', async () => {
    const errorsOf = (source: ParameterSource) => {
      try {
        readParameters(source);
      } catch (error) {
        return (error as ApiError).errors;
      }
      return undefined;
    };
    expect(errorsOf({ queryStringParameters: { a: '%zz', b: '50%' } })).toEqual({
      a: expect.stringContaining('percent'),
      b: expect.stringContaining('percent'),
    });
    expect(errorsOf({ multiValueQueryStringParameters: { ids: ['1', '\uFFFD'] } })).toEqual({
      ids: expect.stringContaining('percent'),
    });
    expect(errorsOf({ queryStringParameters: { a: '%41 is A' } })).toBeUndefined();
  });

  it('takes each credential parameter once, or the same value once in the query and once in the body', async () => {
    const once = { multiValueQueryStringParameters: { hash: ['ab'] }, headers: FORM, body: 'hash=ab' };
    expect((await read(once)).get('hash')).toBe('ab');
    for (const source of [
      { multiValueQueryStringParameters: { hash: ['ab', 'ab'] } },
      { headers: FORM, body: 'timestamp=1&timestamp=1' },
      { multiValueQueryStringParameters: { username: ['demo'] }, headers: FORM, body: 'username=other' },
    ])
      expect(await status(() => read(source)), JSON.stringify(source)).toBe(400);
  });
});
