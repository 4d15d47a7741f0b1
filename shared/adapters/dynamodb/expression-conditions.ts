/** A condition on an item's top-level attributes, built into expression text by `ExpressionPlaceholders`. */
export type Condition =
  | { kind: 'exists' | 'absent'; attribute: string }
  | { kind: 'compare'; attribute: string; operator: '=' | '<' | '<=' | '>' | '>='; value: unknown }
  | { kind: 'beginsWith'; attribute: string; prefix: string }
  | { kind: 'between'; attribute: string; low: unknown; high: unknown }
  | { kind: 'all' | 'any'; of: readonly Condition[] };

/** A sort-key condition of a query: DynamoDB allows only these on a key. */
export type SortKeyCondition = Extract<Condition, { kind: 'compare' | 'beginsWith' | 'between' }>;

const compare =
  (operator: '=' | '<' | '<=' | '>' | '>=') =>
  (attribute: string, value: unknown): Extract<Condition, { kind: 'compare' }> => ({
    kind: 'compare',
    attribute,
    operator,
    value,
  });

export const attributeExists = (attribute: string): Condition => ({ kind: 'exists', attribute });
export const attributeAbsent = (attribute: string): Condition => ({ kind: 'absent', attribute });
export const equals = compare('=');
export const below = compare('<');
export const atMost = compare('<=');
export const above = compare('>');
export const beginsWith = (attribute: string, prefix: string): SortKeyCondition => ({
  kind: 'beginsWith',
  attribute,
  prefix,
});
export const between = (attribute: string, low: unknown, high: unknown): SortKeyCondition => ({
  kind: 'between',
  attribute,
  low,
  high,
});
export const anyOf = (...of: Condition[]): Condition => ({ kind: 'any', of });
export const allOf = (...of: Condition[]): Condition => ({ kind: 'all', of });
