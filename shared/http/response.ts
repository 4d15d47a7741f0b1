import type { APIGatewayProxyResult } from 'aws-lambda';
import { ApiError } from './api-error';
import { exactJson } from './exact-json';

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

export const errorEnvelope = (error: ApiError): Record<string, unknown> => ({
  success: false,
  message: error.message,
  ...(error.errors ? { errors: error.errors } : {}),
  ...error.extra,
});

export const errorResponse = (error: ApiError): APIGatewayProxyResult =>
  jsonResponse(error.statusCode, errorEnvelope(error), error.headers);
