/**
 * A map-like object for keys that come from a request: without a prototype, a parameter named `__proto__` or
 * `constructor` is an ordinary key rather than a way into Object.prototype.
 */
export const dictionary = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;
