import { equals, type Condition, type SortKeyCondition } from './expression-conditions';
import { ExpressionPlaceholders, type DeclaredPlaceholders } from './expression-placeholders';

/** The condition of a Put, a Delete or a transaction's ConditionCheck, with exactly the placeholders it uses. */
export const conditionExpression = (condition: Condition): { ConditionExpression: string } & DeclaredPlaceholders => {
  const placeholders = new ExpressionPlaceholders();
  const ConditionExpression = placeholders.condition(condition);
  return { ConditionExpression, ...placeholders.declared() };
};

/** A query's key condition: the partition key equal to a value and, optionally, a condition on the sort key. */
export const keyConditionExpression = (
  partitionKey: string,
  partition: unknown,
  sortKey?: SortKeyCondition,
): { KeyConditionExpression: string } & DeclaredPlaceholders => {
  const placeholders = new ExpressionPlaceholders();
  const onPartition = placeholders.condition(equals(partitionKey, partition));
  const KeyConditionExpression = sortKey ? `${onPartition} AND ${placeholders.condition(sortKey)}` : onPartition;
  return { KeyConditionExpression, ...placeholders.declared() };
};
