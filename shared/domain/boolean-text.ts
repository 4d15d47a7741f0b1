import type { Parsed } from './limits/cap-values';

/** The words read as a boolean, in any case and with surrounding blanks. */
export const BOOLEAN_WORDS = { true: ['true', '1', 'yes', 'on'], false: ['false', '0', 'no', 'off'] } as const;
const TRUE: ReadonlySet<string> = new Set(BOOLEAN_WORDS.true);
const FALSE: ReadonlySet<string> = new Set(BOOLEAN_WORDS.false);

export const BOOLEAN_FORMS_MESSAGE = 'must be a boolean: true/false, 1/0, yes/no or on/off (any case)';

/** A boolean as clients send it: Spring MVC's forms (Epom's own binding), any case; anything else is refused. */
export const parseBooleanText = (text: string): Parsed<boolean> => {
  const word = text.trim().toLowerCase();
  if (TRUE.has(word)) return { ok: true, value: true };
  if (FALSE.has(word)) return { ok: true, value: false };
  return { ok: false, reason: BOOLEAN_FORMS_MESSAGE };
};
