import type { APIGatewayProxyResult } from 'aws-lambda';
import type { ApiRequest } from '../pipeline/family-handler';

/**
 * The answer stored in the write's own transaction, for a request with an Idempotency-Key: a commit whose answer
 * is lost (a timeout after it) leaves the answer for the retry, never the write without it.
 */
export const answerItems = (request: ApiRequest, answer: APIGatewayProxyResult) =>
  request.idempotency ? [request.idempotency.commitItem(answer)] : [];
