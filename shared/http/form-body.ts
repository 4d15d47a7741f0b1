import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ApiError } from './api-error';
import { headerValue, rawBody } from './parameters';

export const MAX_BODY_BYTES = 1024 * 1024;

/** The most pairs a form body may hold: `querystring.parse`, which read forms before, dropped any beyond 1,000. */
const MAX_FORM_PAIRS = 1000;

const FORM_CONTENT_TYPE = /^application\/x-www-form-urlencoded\s*(;.*)?$/i;
/** Blanks before the parameters (`…urlencoded ; charset=…`): the body is checked as a form but not read as one. */
const READ_AS_FORM = /^application\/x-www-form-urlencoded(;.*)?$/i;

type Middleware = middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;

const malformedEscapes = () =>
  new ApiError(400, 'Malformed form body: invalid percent-encoding', { errors: { body: 'invalid percent-encoding' } });

/** A name or value as a browser encodes it: `+` is a space, and escapes must spell UTF-8 (else 400). */
const decoded = (text: string): string => {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    throw malformedEscapes();
  }
};

/**
 * The pairs of a form body by name, in one pass, as `querystring.parse` read them before: empty pairs skipped, a
 * pair without `=` an empty value, names in the order of an object's keys (integer-like names first). A pair named
 * `__proto__` was dropped by the copy of that result the old body parser made; it still is, so no request changes.
 */
export const parseForm = (body: string): Map<string, string[]> => {
  const byName: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  const pairs = body.split('&');
  for (const pair of pairs) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = decoded(at < 0 ? pair : pair.slice(0, at));
    const value = at < 0 ? '' : decoded(pair.slice(at + 1));
    if (name !== '__proto__') (byName[name] ??= []).push(value);
  }
  if (pairs.length > MAX_FORM_PAIRS)
    throw new ApiError(400, `A form body may hold at most ${MAX_FORM_PAIRS} parameters`, {
      errors: { body: 'too many parameters' },
    });
  return new Map(Object.entries(byName));
};

/** A body that is one bare word (`abc`, no `=` or `&`) is no form: the old body parser refused it, and so do we. */
const isBareWord = (form: ReadonlyMap<string, string[]>, sent: string): boolean => {
  const values = form.get(sent);
  return values !== undefined && values.length === 1 && values[0] === '';
};

/**
 * A form body, base64 or not, is read here into its pairs, which the parameter reader takes: the body fits (413),
 * its escapes are well formed and its pairs countable (400), whatever case the client wrote its content type in. A
 * body of another type is left as it came, and the reader answers 400 for it. A request without a body (every
 * read) has nothing to do here.
 */
export const formBody = (): Middleware => ({
  before: async ({ event }) => {
    if (!event.body) return;
    const body = rawBody(event);
    if (Buffer.byteLength(body) > MAX_BODY_BYTES) throw new ApiError(413, 'The request body is larger than 1 MiB');
    const contentType = headerValue(event.headers, 'content-type') ?? '';
    if (!FORM_CONTENT_TYPE.test(contentType)) return;
    const form = parseForm(body);
    if (!READ_AS_FORM.test(contentType)) return;
    if (isBareWord(form, event.body))
      throw new ApiError(400, 'Malformed form body', { errors: { body: 'not a URL-encoded form' } });
    (event as { body: unknown }).body = form;
  },
});
