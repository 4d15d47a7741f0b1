import { expect, it } from 'vitest';
import {
  expressionProblems,
  type ExpressionRequest,
} from '../../shared/adapters/dynamodb/expressions/expression-rules';

/** The requests inside a transaction's items, or the request itself. */
const requestsOf = (built: object): ExpressionRequest[] =>
  'TransactItems' in built
    ? (built.TransactItems as object[]).flatMap((item) => requestsOf(item))
    : ['Put', 'Update', 'Delete', 'ConditionCheck'].some((action) => action in built)
      ? Object.values(built).map((request) => request as ExpressionRequest)
      : [built as ExpressionRequest];

/** One test per request a store builds, named by what it does: DynamoDB takes every expression in it. */
export const itBuildsRequestsDynamoDbTakes = (requests: [string, object][]) =>
  it.each(requests)('%s: every expression is one DynamoDB takes, every placeholder declared and used', (_, built) => {
    const requests = requestsOf(built);
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) expect(expressionProblems(request)).toEqual([]);
  });
