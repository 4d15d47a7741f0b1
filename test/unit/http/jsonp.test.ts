import { describe, expect, it } from 'vitest';
import { isValidCallback, jsonpBody, scriptSafeJson } from '../../../shared/http/jsonp';

describe('JSONP', () => {
  it('accepts only plain identifier paths of at most 64 characters', () => {
    for (const good of ['cb', 'app.login.done', '$', '_x1', 'a'.repeat(64)])
      expect(isValidCallback(good), good).toBe(true);
    for (const bad of ['alert(1)', 'a..b', '1cb', 'a.', 'a[0]', 'a b', '', 'a'.repeat(65), 'cb;evil', 'a.1b'])
      expect(isValidCallback(bad), bad).toBe(false);
  });

  it('escapes what could end a script or break a JavaScript string', () => {
    const text = scriptSafeJson({ error: '</script><b>&\u2028\u2029' });
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ error: '</script><b>&\u2028\u2029' });
  });

  it('wraps the value in a call that evaluates to it', () => {
    let received: unknown;
    new Function('cb', jsonpBody('cb', { success: false, error: 'x</script>' }))(
      (value: unknown) => (received = value),
    );
    expect(received).toEqual({ success: false, error: 'x</script>' });
  });
});
