import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/http/api-error';
import { errorResponse } from '../../../shared/http/response';

describe('ApiError', () => {
  it('answers each named option in its place of the envelope and the headers', () => {
    const error = new ApiError(429, 'Slow down', {
      errors: { limit: 'too many' },
      extra: { permission: 'X' },
      headers: { 'Retry-After': '7' },
      code: 'RATE_LIMITED',
    });
    const answer = errorResponse(error);
    expect(answer.statusCode).toBe(429);
    expect(answer.headers).toMatchObject({ 'Retry-After': '7' });
    expect(JSON.parse(answer.body)).toEqual({
      success: false,
      code: 'RATE_LIMITED',
      message: 'Slow down',
      errors: { limit: 'too many' },
      permission: 'X',
    });
  });

  it("without options has the status's own code, no errors, no extra fields and no headers of its own", () => {
    const answer = errorResponse(new ApiError(404, 'No such route'));
    expect(JSON.parse(answer.body)).toEqual({ success: false, code: 'NOT_FOUND', message: 'No such route' });
    expect(Object.keys(answer.headers ?? {})).toEqual(['Content-Type']);
  });
});
