/** The most characters of a parameter name an answer or a history entry repeats. */
export const MAX_ECHOED_NAME_LENGTH = 64;

/**
 * A parameter name as the service repeats it (in `errors`, a 400's message, `ignoredFields`): a longer one is cut
 * to MAX_ECHOED_NAME_LENGTH characters and ends in `…`, so a body of one long name draws a short answer. A cut
 * never splits a character outside the Basic Multilingual Plane.
 */
export const echoedName = (name: string): string => {
  if (name.length <= MAX_ECHOED_NAME_LENGTH) return name;
  const cut = name.slice(0, MAX_ECHOED_NAME_LENGTH);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
};
