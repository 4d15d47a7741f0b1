/**
 * The one way the stores write DynamoDB expressions: conditions, condition and key-condition expressions, update
 * expressions, each with its placeholders. `expression-rules.ts`, which holds requests to DynamoDB's own rules, is
 * the tests' and stays out of this surface (and so out of the functions' bundles).
 */
export {
  above,
  allOf,
  anyOf,
  atMost,
  attributeAbsent,
  attributeExists,
  beginsWith,
  below,
  between,
  equals,
  type Condition,
  type SortKeyCondition,
} from './expression-conditions';
export { conditionExpression, keyConditionExpression } from './condition-expression';
export { removeAttributes, UpdateBuilder, type UpdateExpressionParts } from './update-expression';
