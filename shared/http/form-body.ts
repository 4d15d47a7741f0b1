import type middy from '@middy/core';
import httpUrlencodeBodyParser from '@middy/http-urlencode-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ApiError } from './api-error';
import { headerValue, rawBody } from './parameters';

export const MAX_BODY_BYTES = 1024 * 1024;

/** `querystring.parse`, under the body parser, keeps the first 1,000 pairs and drops the rest without a word. */
const MAX_FORM_PAIRS = 1000;

const FORM_CONTENT_TYPE = /^application\/x-www-form-urlencoded\s*(;.*)?$/i;

type Middleware = middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;
type ParsedForm = Record<string, string | string[] | undefined>;

/** Percent-escapes that are not two hex digits, or that do not spell UTF-8: kept as text by the parser, refused here. */
const hasMalformedEscapes = (body: string): boolean => {
  if (!body.includes('%')) return false;
  try {
    decodeURIComponent(body.replace(/\+/g, ' '));
    return false;
  } catch {
    return true;
  }
};

/**
 * What must hold before the body parser runs: the body fits (413), a form's escapes are well formed and its pairs
 * countable (400), and its content type is where the parser looks for it, in the case the parser reads. Answers
 * whether the body is a form to parse.
 */
const guardFormBody = (event: APIGatewayProxyEvent): boolean => {
  const body = rawBody(event);
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) throw new ApiError(413, 'The request body is larger than 1 MiB');
  const contentType = headerValue(event.headers, 'content-type') ?? '';
  if (!FORM_CONTENT_TYPE.test(contentType)) return false;
  if (hasMalformedEscapes(body))
    throw new ApiError(400, 'Malformed form body: invalid percent-encoding', {
      errors: { body: 'invalid percent-encoding' },
    });
  if (body.split('&').length > MAX_FORM_PAIRS)
    throw new ApiError(400, `A form body may hold at most ${MAX_FORM_PAIRS} parameters`, {
      errors: { body: 'too many parameters' },
    });
  event.headers = { ...event.headers, 'content-type': contentType.replace(/^[^;]*/, (type) => type.toLowerCase()) };
  return true;
};

/** The parser's refusal of a body it cannot read as a form (a bare word such as `abc`): a client error of its own. */
const isRefusedForm = (error: unknown): boolean =>
  error instanceof Error && (error as { statusCode?: number }).statusCode === 415;

/** The parsed pairs by name, each name's values in order, as the parameter reader takes them. */
const byName = (parsed: ParsedForm): Map<string, string[]> => {
  const form = new Map<string, string[]>();
  for (const [name, value] of Object.entries(parsed)) if (value !== undefined) form.set(name, [value].flat());
  return form;
};

/**
 * Form bodies, base64 or not, are parsed by `@middy/http-urlencode-body-parser` after the guard, and handed to the
 * parameter reader by name; a body of another type is left as it came, and the reader answers 400 for it. A
 * request without a body (every read) has nothing for either to do.
 */
export const formBody = (): Middleware => {
  const parser = httpUrlencodeBodyParser({ disableContentTypeError: true });
  return {
    before: async (request) => {
      if (!request.event.body) return;
      if (!guardFormBody(request.event)) return;
      try {
        await parser.before!(request as never);
      } catch (error) {
        if (!isRefusedForm(error)) throw error;
        throw new ApiError(400, 'Malformed form body', { errors: { body: 'not a URL-encoded form' } });
      }
      const parsed = request.event.body as unknown;
      if (parsed !== null && typeof parsed === 'object')
        (request.event as { body: unknown }).body = byName(parsed as ParsedForm);
    },
  };
};
