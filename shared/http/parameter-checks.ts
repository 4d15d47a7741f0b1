import { badRequest } from './api-error';
import type { Parameters } from './parameters';

/** A required, non-blank text parameter of at most `maxLength` characters. */
export const requiredText = (parameters: Parameters, name: string, maxLength: number): string => {
  const value = parameters.get(name);
  if (value === undefined || value === '') throw badRequest({ [name]: 'is required' });
  if (value.length > maxLength) throw badRequest({ [name]: `must be at most ${maxLength} characters` });
  return value;
};

/** `true` or `false`; absent is undefined; anything else is a 400. */
export const optionalBoolean = (parameters: Parameters, name: string): boolean | undefined => {
  const value = parameters.get(name);
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw badRequest({ [name]: 'must be true or false' });
};
