/** The IETF draft's request header that makes a write safe to retry (httpapi-idempotency-key-header). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** Marks an answer given from storage: the write it answers was made by an earlier request under the key. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** A key's text: 1 to 255 visible ASCII characters but the quote and the backslash. */
const KEY_TEXT = '[!#-\\[\\]-~]{1,255}';

/** The key alone, once its quotes are taken off. */
export const IDEMPOTENCY_KEY = new RegExp(`^${KEY_TEXT}$`);

/** The header as sent: a structured-field string (`"…"`, as the draft writes it) or the same text bare. */
export const IDEMPOTENCY_HEADER_PATTERN = `^(?:"${KEY_TEXT}"|${KEY_TEXT})$`;
