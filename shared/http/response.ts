import type { APIGatewayProxyResult } from 'aws-lambda';
import { ApiError } from './api-error';
import { errorCodeOf } from '../api/error-codes';
import { exactJson } from '../support/exact-json';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export const jsonResponse = (
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyResult => ({
  statusCode,
  headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers },
  body: exactJson(body),
});

/** Every error carries the request's id (the `X-Request-Id` header's), so that a caller can quote it and an operator find the log lines. */
export const errorEnvelope = (error: ApiError, requestId?: string): Record<string, unknown> => ({
  success: false,
  code: error.code ?? errorCodeOf(error.statusCode, typeof error.extra.permission === 'string'),
  message: error.message,
  ...(error.errors ? { errors: error.errors } : {}),
  ...error.extra,
  ...(requestId ? { requestId } : {}),
});

export const errorResponse = (error: ApiError, requestId?: string): APIGatewayProxyResult =>
  jsonResponse(error.statusCode, errorEnvelope(error, requestId), error.headers);
