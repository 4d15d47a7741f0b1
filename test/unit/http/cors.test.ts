import { describe, expect, it } from 'vitest';
import { corsHeaders, corsPolicyOf } from '../../../shared/http/cors';

describe('CORS', () => {
  it('reads CORS_ORIGINS as the stack setting is written: commas, with or without spaces, empty entries dropped', () => {
    expect(corsPolicyOf(' http://localhost:5173 , https://ui.limits.test,,').allowedOrigins).toEqual([
      'http://localhost:5173',
      'https://ui.limits.test',
    ]);
    expect(corsPolicyOf(undefined).allowedOrigins).toEqual([]);
    expect(corsPolicyOf('').allowedOrigins).toEqual([]);
  });

  it('answers an allowed origin with credentials, any other with Vary alone, and nothing without a policy', () => {
    const policy = corsPolicyOf('https://ui.limits.test, https://admin.limits.test');
    expect(corsHeaders(policy, 'https://admin.limits.test')).toMatchObject({
      'Access-Control-Allow-Origin': 'https://admin.limits.test',
      'Access-Control-Allow-Credentials': 'true',
      Vary: 'Origin',
    });
    expect(corsHeaders(policy, 'https://evil.test')).toEqual({ Vary: 'Origin' });
    expect(corsHeaders(policy, undefined)).toEqual({ Vary: 'Origin' });
    expect(corsHeaders(corsPolicyOf(undefined), 'https://ui.limits.test')).toEqual({});
  });
});
