/** Entity, record and action ids: positive integers of at most 15 digits, so that a JavaScript number holds them exactly. */
const ID_PATTERN = /^\d{1,15}$/;

/** The id a text names, or undefined when it is not a positive integer of at most 15 digits. */
export const parsePositiveId = (text: string | undefined): number | undefined =>
  text !== undefined && ID_PATTERN.test(text) && Number(text) >= 1 ? Number(text) : undefined;
