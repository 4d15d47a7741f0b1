import { parsePositiveId } from '../domain/identifiers';
import { badRequest } from '../http/api-error';
import { optionalBoolean } from '../http/parameter-checks';
import type { ApiRequest } from '../pipeline/family-handler';
import { parseTimezoneOffset } from '../domain/limits/limit-dates';

/** A positive integer id from the path or a parameter; anything else is a 400 naming it. */
export const positiveId = (text: string | undefined, name: string): number => {
  const id = parsePositiveId(text);
  if (id === undefined) throw badRequest({ [name]: 'must be a positive integer' });
  return id;
};

export const optionalTimezoneOffset = (request: ApiRequest): number | undefined => {
  const text = request.parameters.get('timezoneOffset');
  if (text === undefined) return undefined;
  const parsed = parseTimezoneOffset(text);
  if (!parsed.ok) throw badRequest({ timezoneOffset: parsed.reason });
  return parsed.value;
};

/** `dryRun=true`: every check runs, nothing is written. */
export const isDryRun = (request: ApiRequest): boolean => optionalBoolean(request.parameters, 'dryRun') ?? false;
