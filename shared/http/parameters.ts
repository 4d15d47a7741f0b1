import { echoedName } from '../domain/echoed-name';
import { SUBSCRIPTION_LIST_PARAMETERS } from '../domain/webhooks/subscription-request';
import { ApiError, badRequest } from './api-error';

/**
 * Request parameters from the query string and a form body, normalised. Real Epom clients send every
 * parameter in the query, even on POST; the body wins where both name a parameter. Arrays may be repeated
 * (`a=1&a=2`), comma-separated (`a=1,2`) or bracketed (`a[]=1&a[]=2`, `a[0]=1&a[1]=2`).
 */
export class Parameters {
  constructor(private readonly values: ReadonlyMap<string, readonly string[]>) {}

  names(): string[] {
    return [...this.values.keys()];
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** The single value of a scalar parameter; a parameter given twice with different values is a 400. */
  get(name: string): string | undefined {
    const values = this.values.get(name);
    if (!values) return undefined;
    if (new Set(values).size > 1) throw badRequest({ [name]: 'given more than once with different values' });
    return values[0];
  }

  /** Every value as sent, in order. */
  all(name: string): readonly string[] {
    return this.values.get(name) ?? [];
  }

  /** Every value of an array parameter, repeated or comma-separated, blanks dropped. */
  list(name: string): string[] {
    return (this.values.get(name) ?? [])
      .flatMap((value) => value.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
  }
}

export interface ParameterSource {
  multiValueQueryStringParameters?: Record<string, string[] | undefined> | null;
  queryStringParameters?: Record<string, string | undefined> | null;
  headers?: Record<string, string | undefined> | null;
  /**
   * A form body arrives as its pairs by name, read by the form-body middleware; any other body as the client sent
   * it.
   */
  body?: string | ReadonlyMap<string, string[]> | null;
  isBase64Encoded?: boolean;
}

/** A header by name, whatever case the client wrote it in; the first one when it came in several cases. */
export const headerValue = (headers: ParameterSource['headers'], name: string): string | undefined => {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers))
    if (key.length === wanted.length && key.toLowerCase() === wanted) return headers[key];
  return undefined;
};

export const rawBody = (event: ParameterSource): string =>
  typeof event.body === 'string' && event.body !== ''
    ? event.isBase64Encoded
      ? Buffer.from(event.body, 'base64').toString('utf8')
      : event.body
    : '';

/** Parameters that carry a list; only these may be written `name[]` or `name[N]`. */
export const ARRAY_PARAMETERS: ReadonlySet<string> = new Set([
  'limitCounters',
  'ids',
  'bannerIds',
  'campaignIds',
  ...SUBSCRIPTION_LIST_PARAMETERS,
]);

const BRACKETED = /^([A-Za-z][A-Za-z0-9]*)\[(.*)\]$/;

/**
 * One name per parameter, whatever the client wrote: `ids`, `ids[]` (Rack, HTTParty) and `ids[N]` (PHP's
 * http_build_query) all become `ids`, in index order. A bracketed name that is not an array parameter stays as
 * written (an unknown parameter); an array parameter in brackets the reader cannot read is a 400, never dropped.
 */
const normalised = (raw: ReadonlyMap<string, string[]>): Map<string, string[]> => {
  const values = new Map<string, string[]>();
  const indexed = new Map<string, { index: number; order: number; value: string }[]>();
  let order = 0;
  for (const [name, list] of raw) {
    const match = name.endsWith(']') ? BRACKETED.exec(name) : null;
    // each name of `raw` comes once: only a bracketed array parameter (below) adds to a name already read
    if (!match || !ARRAY_PARAMETERS.has(match[1]!)) {
      values.set(name, list.slice());
      continue;
    }
    const base = match[1]!;
    const index = match[2]!;
    if (index !== '' && !/^\d{1,6}$/.test(index))
      throw badRequest({ [base]: `cannot read ${echoedName(name)}: write ${base}=a,b, ${base}[]=a or ${base}[0]=a` });
    const entries = indexed.get(base) ?? [];
    for (const value of list)
      entries.push({ index: index === '' ? Number.MAX_SAFE_INTEGER : Number(index), order: order++, value });
    indexed.set(base, entries);
  }
  for (const [base, entries] of indexed) {
    entries.sort((a, b) => a.index - b.index || a.order - b.order);
    values.set(base, [...(values.get(base) ?? []), ...entries.map((entry) => entry.value)]);
  }
  return values;
};

/**
 * What is left of a malformed percent-escape once the query is decoded (by API Gateway, or the local server as
 * it does): a `%` not followed by two hex digits is kept as written, bytes that are not UTF-8 become U+FFFD.
 */
const MALFORMED_ESCAPE = /%(?![0-9A-Fa-f]{2})|\uFFFD/;

/** A query string whose escapes cannot be read is a 400 naming each parameter, never a value silently altered. */
const refuseMalformedEscapes = (values: ReadonlyMap<string, string[]>): void => {
  const errors: Record<string, string> = {};
  for (const [name, list] of values)
    if (MALFORMED_ESCAPE.test(name) || list.some((value) => MALFORMED_ESCAPE.test(value)))
      errors[name] = 'malformed percent-encoding: write % as %25, and other bytes as %XX of their UTF-8';
  if (Object.keys(errors).length > 0) throw badRequest(errors);
};

const queryValues = (event: ParameterSource): Map<string, string[]> => {
  const values = new Map<string, string[]>();
  for (const [name, list] of Object.entries(event.multiValueQueryStringParameters ?? {}))
    if (list) values.set(name, list);
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {}))
    if (value !== undefined && !values.has(name)) values.set(name, [value]);
  refuseMalformedEscapes(values);
  return normalised(values);
};

/** The parameters of hash authentication: what a request is signed by, and what its replay is keyed by. */
export const CREDENTIAL_PARAMETERS = ['username', 'timestamp', 'hash'] as const;

/**
 * A credential parameter is given once: a second one could authenticate with one value and key the replay guard
 * with another. Epom's PHP samples send a DELETE's data in the URL and in the body alike, so the same value once in
 * each is the one exception.
 */
const refuseRepeatedCredentials = (query: ReadonlyMap<string, string[]>, form: ReadonlyMap<string, string[]>) => {
  const errors: Record<string, string> = {};
  for (const name of CREDENTIAL_PARAMETERS) {
    const inQuery = query.get(name) ?? [];
    const inForm = form.get(name) ?? [];
    if (inQuery.length > 1 || inForm.length > 1 || new Set([...inQuery, ...inForm]).size > 1)
      errors[name] = 'given more than once: send each credential parameter once';
  }
  if (Object.keys(errors).length > 0) throw badRequest(errors);
};

/** A form body the form-body middleware read, by name; a body of another kind is a 400. */
const formValues = (event: ParameterSource): ReadonlyMap<string, string[]> => {
  if (event.body instanceof Map) return event.body;
  if (rawBody(event).trim() !== '')
    throw new ApiError(400, 'The request body must be application/x-www-form-urlencoded', {
      errors: { 'Content-Type': 'expected application/x-www-form-urlencoded' },
    });
  return new Map();
};

/** Reads every parameter of a request: the query string, and a form body the form-body middleware parsed. */
export const readParameters = (event: ParameterSource): Parameters => {
  const values = queryValues(event);
  const form = formValues(event);
  refuseRepeatedCredentials(values, form);
  for (const [name, list] of normalised(form)) values.set(name, list);
  return new Parameters(values);
};
