/** A JSONP callback may only be a plain identifier path such as `cb` or `app.handlers.login`. */
export const JSONP_CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;
export const JSONP_CALLBACK_MAX_LENGTH = 64;

export const isValidCallback = (callback: string): boolean =>
  callback.length <= JSONP_CALLBACK_MAX_LENGTH && JSONP_CALLBACK.test(callback);

/** JSON that is safe inside a script: no HTML-significant characters, no JavaScript line separators. */
export const scriptSafeJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The `/**\/` prefix keeps a response from being read as anything but a call (Rosetta Flash). */
export const jsonpBody = (callback: string, value: unknown): string => `/**/${callback}(${scriptSafeJson(value)});`;
