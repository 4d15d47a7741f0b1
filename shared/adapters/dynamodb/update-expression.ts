/**
 * One way to build a DynamoDB update: every clause names its attributes and values itself, and only a clause that
 * is added registers a placeholder, so a request can neither declare a name or value it does not use nor use one
 * it does not declare. Attribute names are always top-level attributes and always go through a placeholder, so a
 * reserved word or a name with `:` or `.` in it (`seq:host-1`) is safe. Any table item can be updated with it.
 */

/** A condition on the item as it is before the update. */
export type Condition =
  | { kind: 'exists' | 'absent'; attribute: string }
  | { kind: 'compare'; attribute: string; operator: '=' | '<' | '<=' | '>' | '>='; value: unknown }
  | { kind: 'all' | 'any'; of: readonly Condition[] };

export const attributeExists = (attribute: string): Condition => ({ kind: 'exists', attribute });
export const attributeAbsent = (attribute: string): Condition => ({ kind: 'absent', attribute });
export const equals = (attribute: string, value: unknown): Condition => ({
  kind: 'compare',
  attribute,
  operator: '=',
  value,
});
export const below = (attribute: string, value: unknown): Condition => ({
  kind: 'compare',
  attribute,
  operator: '<',
  value,
});
export const atMost = (attribute: string, value: unknown): Condition => ({
  kind: 'compare',
  attribute,
  operator: '<=',
  value,
});
export const anyOf = (...of: Condition[]): Condition => ({ kind: 'any', of });
export const allOf = (...of: Condition[]): Condition => ({ kind: 'all', of });

/** The expression fields of an UpdateItem (or a transaction's Update), each present only when it holds something. */
export interface UpdateExpressionParts {
  UpdateExpression: string;
  ConditionExpression?: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

export class UpdateBuilder {
  private readonly names = new Map<string, string>();
  private readonly values: Record<string, unknown> = {};
  private readonly updated = new Set<string>();
  private readonly clauses = { SET: [] as string[], REMOVE: [] as string[], ADD: [] as string[] };
  private readonly conditions: string[] = [];
  private nextValue = 0;

  /** `SET attribute = value`. */
  set(attribute: string, value: unknown): this {
    return this.action('SET', attribute, (name) => `${name} = ${this.value(value)}`);
  }

  /** `SET attribute = if_not_exists(attribute, value)`: the value only where the item has none. */
  setIfAbsent(attribute: string, value: unknown): this {
    return this.action('SET', attribute, (name) => `${name} = if_not_exists(${name}, ${this.value(value)})`);
  }

  /** `ADD attribute value`: adds to a number (from 0 when absent), atomically. */
  add(attribute: string, value: unknown): this {
    return this.action('ADD', attribute, (name) => `${name} ${this.value(value)}`);
  }

  /** `REMOVE attribute`. */
  remove(attribute: string): this {
    return this.action('REMOVE', attribute, (name) => name);
  }

  /** A condition the item must meet for the update to apply; several are all required. */
  require(condition: Condition): this {
    const text = this.condition(condition);
    if (!this.conditions.includes(text)) this.conditions.push(text);
    return this;
  }

  /** Whether any attribute is updated yet. */
  get isEmpty(): boolean {
    return this.updated.size === 0;
  }

  build(): UpdateExpressionParts {
    if (this.isEmpty) throw new Error('an update expression needs at least one action');
    const clauses = Object.entries(this.clauses).filter(([, actions]) => actions.length > 0);
    return {
      UpdateExpression: clauses.map(([keyword, actions]) => `${keyword} ${actions.join(', ')}`).join(' '),
      ...(this.conditions.length > 0 ? { ConditionExpression: this.conditions.join(' AND ') } : {}),
      ExpressionAttributeNames: Object.fromEntries([...this.names].map(([attribute, name]) => [name, attribute])),
      ...(this.nextValue > 0 ? { ExpressionAttributeValues: { ...this.values } } : {}),
    };
  }

  private action(clause: keyof UpdateBuilder['clauses'], attribute: string, text: (name: string) => string): this {
    // DynamoDB refuses two actions on one path in one update: a planner that asks for it has a defect
    if (this.updated.has(attribute)) throw new Error(`the update already changes ${attribute}`);
    this.updated.add(attribute);
    this.clauses[clause].push(text(this.name(attribute)));
    return this;
  }

  private name(attribute: string): string {
    let placeholder = this.names.get(attribute);
    if (placeholder === undefined) {
      placeholder = `#a${this.names.size}`;
      this.names.set(attribute, placeholder);
    }
    return placeholder;
  }

  private value(value: unknown): string {
    if (value === undefined) throw new Error('an expression value cannot be undefined');
    const placeholder = `:v${this.nextValue++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  private condition(condition: Condition): string {
    switch (condition.kind) {
      case 'exists':
        return `attribute_exists(${this.name(condition.attribute)})`;
      case 'absent':
        return `attribute_not_exists(${this.name(condition.attribute)})`;
      case 'compare':
        return `${this.name(condition.attribute)} ${condition.operator} ${this.value(condition.value)}`;
      default: {
        if (condition.of.length === 0) throw new Error('a combined condition needs at least one condition');
        const parts = condition.of.map((part) => this.condition(part));
        return parts.length === 1 ? parts[0]! : `(${parts.join(condition.kind === 'all' ? ' AND ' : ' OR ')})`;
      }
    }
  }
}
