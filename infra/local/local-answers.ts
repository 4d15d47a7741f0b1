import type { APIGatewayProxyResult } from 'aws-lambda';
import { errorCodeOf } from '../../shared/api/error-codes';
import { jsonResponse } from '../../shared/http/response';

/** One `/_local/*` endpoint: the request's body in, the answer out. */
export type LocalHandler = (body: string) => Promise<APIGatewayProxyResult>;

/** A refusal in the API's error envelope. */
export const failure = (statusCode: number, message: string, extra: Record<string, unknown> = {}) =>
  jsonResponse(statusCode, { success: false, code: errorCodeOf(statusCode), message, ...extra });

export const parseJson = (body: string): { value: unknown } | { error: APIGatewayProxyResult } => {
  try {
    return { value: JSON.parse(body) };
  } catch {
    return { error: failure(400, 'The body is not valid JSON') };
  }
};
