import querystring from 'node:querystring';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/http/api-error';
import { formBody } from '../../../shared/http/form-body';
import { readParameters, type ParameterSource } from '../../../shared/http/parameters';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

interface Sent {
  body: string;
  contentType: string;
  base64: boolean;
}

type Outcome = { parameters: [string, readonly string[]][] } | { status: number; message: string; errors: unknown };

const refusal = (status: number, message: string, errors?: unknown): Outcome => ({ status, message, errors });

/**
 * The contract, written out apart from the middleware: the guard's refusals, then what
 * @middy/http-urlencode-body-parser 6.4.5 documents (`querystring.parse`, copied with `Object.assign`, so a pair
 * named `__proto__` is dropped; a body that parses to one key named as the whole body with an empty value refused,
 * answered as a 400), then the reader's view of the result by name.
 */
const readAsPromised = ({ body, contentType, base64 }: Sent): Outcome | Map<string, string[]> | 'not a form' => {
  const text = base64 ? Buffer.from(body, 'base64').toString('utf8') : body;
  if (!/^application\/x-www-form-urlencoded\s*(;.*)?$/i.test(contentType)) return 'not a form';
  try {
    decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return refusal(400, 'Malformed form body: invalid percent-encoding', { body: 'invalid percent-encoding' });
  }
  if (text.split('&').length > 1000)
    return refusal(400, 'A form body may hold at most 1000 parameters', { body: 'too many parameters' });
  const lowered = contentType.replace(/^[^;]*/, (type) => type.toLowerCase());
  if (!/^application\/x-www-form-urlencoded(;.*)?$/.test(lowered)) return 'not a form';
  const parsed: Record<string, string | string[] | undefined> = Object.assign({}, querystring.parse(text));
  if (parsed[body] === '') return refusal(400, 'Malformed form body', { body: 'not a URL-encoded form' });
  const form = new Map<string, string[]>();
  for (const [name, value] of Object.entries(parsed)) if (value !== undefined) form.set(name, [value].flat());
  return form;
};

const outcomeOf = async (run: () => Promise<[string, readonly string[]][]>): Promise<Outcome> => {
  try {
    return { parameters: await run() };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return refusal(error.statusCode, error.message, error.errors);
  }
};

const entriesOf = (event: ParameterSource) => {
  const parameters = readParameters(event);
  return parameters.names().map((name): [string, readonly string[]] => [name, parameters.all(name)]);
};

const eventOf = ({ contentType, base64 }: Sent, read: string | Map<string, string[]>): ParameterSource => ({
  headers: { 'Content-Type': contentType },
  body: read,
  isBase64Encoded: base64 && typeof read === 'string',
});

const expected = async (sent: Sent): Promise<Outcome> => {
  const before = readAsPromised(sent);
  if (before instanceof Map || before === 'not a form')
    return outcomeOf(async () => entriesOf(eventOf(sent, before === 'not a form' ? sent.body : before)));
  return before;
};

const actual = (sent: Sent): Promise<Outcome> =>
  outcomeOf(async () => {
    const event = { headers: { 'Content-Type': sent.contentType }, body: sent.body, isBase64Encoded: sent.base64 };
    await formBody().before?.({ event: event as unknown as APIGatewayProxyEvent } as never);
    return entriesOf(event as ParameterSource);
  });

const PIECES = [
  ...['a', 'b', 'ids', 'ids[]', 'ids[1]', 'ids[0]', 'ids[x]', 'x[]', '2', '10', '__proto__', 'constructor', 'é'],
  ...['=', '=', '&', '&', '+', '%41', '%2B', '%26', '%3D', '%E2%82%AC', '%E2%82', '%zz', '%', '%C3', '%a9'],
];
const CONTENT_TYPES = [
  'application/x-www-form-urlencoded',
  'Application/X-WWW-Form-Urlencoded; charset=utf-8',
  'application/x-www-form-urlencoded ; charset=utf-8',
  'application/x-www-form-urlencoded ',
  'application/json',
  '',
];

const sentBodies = fc
  .record({
    pieces: fc.array(fc.constantFrom(...PIECES), { maxLength: 14 }),
    contentType: fc.constantFrom(...CONTENT_TYPES),
    base64: fc.boolean(),
  })
  .map(({ pieces, contentType, base64 }): Sent => {
    const text = pieces.join('');
    return { body: base64 ? Buffer.from(text).toString('base64') : text, contentType, base64 };
  });

describe('a form body, guarded and parsed by the urlencode body parser', () => {
  it(`reads and refuses exactly what the guard and querystring's reading promise (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(sentBodies, async (sent) => {
        expect(await actual(sent)).toEqual(await expected(sent));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('refuses a bare word, more than 1,000 pairs and a broken escape with a 400', async () => {
    const form = 'application/x-www-form-urlencoded';
    for (const sent of [
      { body: 'abc', contentType: form, base64: false },
      { body: 'constructor', contentType: form, base64: false },
      { body: Array.from({ length: 1001 }, (_, i) => `a${i}=1`).join('&'), contentType: form, base64: false },
      { body: `${'a=1&'.repeat(1000)}b=%E2%82`, contentType: form, base64: false },
    ]) {
      const outcome = await actual(sent);
      expect(outcome).toMatchObject({ status: 400 });
      expect(outcome).toEqual(await expected(sent));
    }
  });
});
