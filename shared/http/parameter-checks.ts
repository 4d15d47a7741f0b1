import { parseBooleanText } from '../domain/boolean-text';
import { badRequest } from './api-error';
import type { Parameters } from './parameters';

const textProblem = (value: string | undefined, maxLength: number): string | undefined =>
  value === undefined || value === ''
    ? 'is required'
    : value.length > maxLength
      ? `must be at most ${maxLength} characters`
      : undefined;

/** A required, non-blank text parameter of at most `maxLength` characters. */
export const requiredText = (parameters: Parameters, name: string, maxLength: number): string =>
  requiredTexts(parameters, { [name]: maxLength })[name]!;

/** Several required text parameters, checked together: the 400 names every one that is missing or too long. */
export const requiredTexts = <Name extends string>(
  parameters: Parameters,
  maxLengths: Record<Name, number>,
): Record<Name, string> => {
  const errors: Record<string, string> = {};
  const values = {} as Record<Name, string>;
  for (const name of Object.keys(maxLengths) as Name[]) {
    const value = parameters.get(name);
    const problem = textProblem(value, maxLengths[name]);
    if (problem) errors[name] = problem;
    else values[name] = value!;
  }
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  return values;
};

/** A boolean in any form clients send (true/false, 1/0, yes/no, on/off, any case); absent is undefined; anything else is a 400. */
export const optionalBoolean = (parameters: Parameters, name: string): boolean | undefined => {
  const value = parameters.get(name);
  if (value === undefined) return undefined;
  const parsed = parseBooleanText(value);
  if (!parsed.ok) throw badRequest({ [name]: parsed.reason });
  return parsed.value;
};
