import type { Condition } from './expression-conditions';
import { ExpressionPlaceholders } from './expression-placeholders';

/** The expression fields of an UpdateItem (or a transaction's Update), each present only when it holds something. */
export interface UpdateExpressionParts {
  UpdateExpression: string;
  ConditionExpression?: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/**
 * One way to build a DynamoDB update: every clause names its attributes and values itself, and only a clause that
 * is added registers a placeholder (`ExpressionPlaceholders`). Any table item can be updated with it.
 */
export class UpdateBuilder {
  private readonly placeholders = new ExpressionPlaceholders();
  private readonly updated = new Set<string>();
  private readonly clauses = { SET: [] as string[], REMOVE: [] as string[], ADD: [] as string[] };
  private readonly conditions: string[] = [];

  /** `SET attribute = value`. */
  set(attribute: string, value: unknown): this {
    return this.action('SET', attribute, (name) => `${name} = ${this.placeholders.value(value)}`);
  }

  /** `SET attribute = if_not_exists(attribute, value)`: the value only where the item has none. */
  setIfAbsent(attribute: string, value: unknown): this {
    return this.action(
      'SET',
      attribute,
      (name) => `${name} = if_not_exists(${name}, ${this.placeholders.value(value)})`,
    );
  }

  /** `ADD attribute value`: adds to a number (from 0 when absent), atomically. */
  add(attribute: string, value: unknown): this {
    return this.action('ADD', attribute, (name) => `${name} ${this.placeholders.value(value)}`);
  }

  /** `REMOVE attribute`. */
  remove(attribute: string): this {
    return this.action('REMOVE', attribute, (name) => name);
  }

  /** A condition the item must meet for the update to apply; several are all required. */
  require(condition: Condition): this {
    const text = this.placeholders.condition(condition);
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
    const { ExpressionAttributeNames, ExpressionAttributeValues } = this.placeholders.declared();
    return {
      UpdateExpression: clauses.map(([keyword, actions]) => `${keyword} ${actions.join(', ')}`).join(' '),
      ...(this.conditions.length > 0 ? { ConditionExpression: this.conditions.join(' AND ') } : {}),
      ExpressionAttributeNames: ExpressionAttributeNames!,
      ...(ExpressionAttributeValues ? { ExpressionAttributeValues } : {}),
    };
  }

  private action(clause: keyof UpdateBuilder['clauses'], attribute: string, text: (name: string) => string): this {
    // DynamoDB refuses two actions on one path in one update: a planner that asks for it has a defect
    if (this.updated.has(attribute)) throw new Error(`the update already changes ${attribute}`);
    this.updated.add(attribute);
    this.clauses[clause].push(text(this.placeholders.name(attribute)));
    return this;
  }
}

/** An update that removes `attributes`, on `condition` when given. */
export const removeAttributes = (attributes: readonly string[], condition?: Condition): UpdateExpressionParts => {
  const update = new UpdateBuilder();
  for (const attribute of attributes) update.remove(attribute);
  if (condition) update.require(condition);
  return update.build();
};
