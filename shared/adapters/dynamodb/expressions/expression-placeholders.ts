import type { Condition } from './expression-conditions';

/** The placeholder maps of a request, each present only when it holds something (DynamoDB refuses empty ones). */
export interface DeclaredPlaceholders {
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/**
 * The names and values of one request's expressions. A placeholder exists only once the text that uses it is
 * written, so a request can neither declare a name or value it does not use nor use one it does not declare.
 * Attribute names always go through a placeholder, so a reserved word or a name with `:` or `.` in it
 * (`seq:host-1`) is safe.
 */
export class ExpressionPlaceholders {
  private readonly names = new Map<string, string>();
  private readonly values: Record<string, unknown> = {};
  private nextValue = 0;

  /** The placeholder of a top-level attribute, the same for every use. */
  name(attribute: string): string {
    let placeholder = this.names.get(attribute);
    if (placeholder === undefined) {
      placeholder = `#a${this.names.size}`;
      this.names.set(attribute, placeholder);
    }
    return placeholder;
  }

  /** A new placeholder for a value. */
  value(value: unknown): string {
    if (value === undefined) throw new Error('an expression value cannot be undefined');
    const placeholder = `:v${this.nextValue++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** The text of a condition, its placeholders registered. */
  condition(condition: Condition): string {
    switch (condition.kind) {
      case 'exists':
        return `attribute_exists(${this.name(condition.attribute)})`;
      case 'absent':
        return `attribute_not_exists(${this.name(condition.attribute)})`;
      case 'compare':
        return `${this.name(condition.attribute)} ${condition.operator} ${this.value(condition.value)}`;
      case 'beginsWith':
        return `begins_with(${this.name(condition.attribute)}, ${this.value(condition.prefix)})`;
      case 'between': {
        const name = this.name(condition.attribute);
        return `${name} BETWEEN ${this.value(condition.low)} AND ${this.value(condition.high)}`;
      }
      default: {
        if (condition.of.length === 0) throw new Error('a combined condition needs at least one condition');
        const parts = condition.of.map((part) => this.condition(part));
        return parts.length === 1 ? parts[0]! : `(${parts.join(condition.kind === 'all' ? ' AND ' : ' OR ')})`;
      }
    }
  }

  declared(): DeclaredPlaceholders {
    const declared: DeclaredPlaceholders = {};
    if (this.names.size > 0) {
      const names: Record<string, string> = {};
      for (const [attribute, name] of this.names) names[name] = attribute;
      declared.ExpressionAttributeNames = names;
    }
    if (this.nextValue > 0) declared.ExpressionAttributeValues = Object.assign({}, this.values);
    return declared;
  }
}
