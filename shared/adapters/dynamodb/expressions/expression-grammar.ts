import type { TokenReader } from './expression-tokens';

/** What reading an expression found: the placeholders it uses, the paths it changes, its operators. */
export interface ExpressionUse {
  names: Set<string>;
  values: Set<string>;
  /** Each changed path as its segments: a `#placeholder`, a bare attribute name, or `[n]`. */
  updated: string[][];
  /** Bare attribute names, which DynamoDB refuses when they are reserved words. */
  bareNames: string[];
  operators: number;
  /** The largest IN list. */
  largestIn: number;
}

export const emptyUse = (): ExpressionUse => ({
  names: new Set(),
  values: new Set(),
  updated: [],
  bareNames: [],
  operators: 0,
  largestIn: 0,
});

const CLAUSES = ['SET', 'REMOVE', 'ADD', 'DELETE'];
const KEYWORDS = new Set([...CLAUSES, 'AND', 'OR', 'NOT', 'BETWEEN', 'IN']);
const CONDITION_FUNCTIONS = new Set([
  'attribute_exists',
  'attribute_not_exists',
  'attribute_type',
  'begins_with',
  'contains',
]);
const UPDATE_FUNCTIONS = new Set(['if_not_exists', 'list_append']);
const COMPARATORS = ['=', '<>', '<', '<=', '>', '>='];

/** A document path: `#a`, `name`, `#a.b[2]`. */
export const readPath = (reader: TokenReader, use: ExpressionUse): string[] | undefined => {
  const segments: string[] = [];
  do {
    const token = reader.next();
    if (token?.kind === 'name') use.names.add(token.text);
    else if (token?.kind === 'word' && !KEYWORDS.has(token.text.toUpperCase())) use.bareNames.push(token.text);
    else {
      reader.fail(`expected an attribute ${token ? `at "${token.text}"` : 'at the end'}`);
      return undefined;
    }
    segments.push(token.text);
    while (reader.peek()?.kind === 'index') segments.push(reader.next()!.text);
  } while (reader.accept('.'));
  return segments;
};

const readValue = (reader: TokenReader, use: ExpressionUse): boolean => {
  const token = reader.next();
  if (token?.kind !== 'value') return reader.fail(`expected a :value ${token ? `at "${token.text}"` : 'at the end'}`);
  use.values.add(token.text);
  return true;
};

const readCall = (reader: TokenReader, use: ExpressionUse, argument: () => boolean): boolean => {
  reader.next();
  use.operators++;
  if (!reader.expect('(')) return false;
  do if (!argument()) return false;
  while (reader.accept(','));
  return reader.expect(')');
};

/** An operand of a condition or of a SET: a path, a value, or a function of them. */
const readOperand = (reader: TokenReader, use: ExpressionUse, functions: Set<string>): boolean => {
  const token = reader.peek();
  if (token?.kind === 'value') return readValue(reader, use);
  if (token?.kind === 'word' && functions.has(token.text) && reader.peek(1)?.text === '(')
    return readCall(reader, use, () => readOperand(reader, use, functions));
  return readPath(reader, use) !== undefined;
};

const readSetAction = (reader: TokenReader, use: ExpressionUse): boolean => {
  const path = readPath(reader, use);
  if (!path || !reader.expect('=')) return false;
  use.updated.push(path);
  if (!readOperand(reader, use, UPDATE_FUNCTIONS)) return false;
  if (reader.peek()?.text === '+' || reader.peek()?.text === '-') {
    reader.next();
    use.operators++;
    return readOperand(reader, use, UPDATE_FUNCTIONS);
  }
  return true;
};

const readClauseAction = (reader: TokenReader, use: ExpressionUse, clause: string): boolean => {
  if (clause === 'SET') return readSetAction(reader, use);
  const path = readPath(reader, use);
  if (!path) return false;
  use.updated.push(path);
  return clause === 'REMOVE' || readValue(reader, use);
};

/** An UpdateExpression: each of SET, REMOVE, ADD, DELETE at most once, none empty. */
export const readUpdate = (reader: TokenReader, use: ExpressionUse): void => {
  const seen = new Set<string>();
  if (reader.done) reader.fail('the expression is empty');
  while (!reader.done) {
    const clause = reader.next()!.text.toUpperCase();
    if (!CLAUSES.includes(clause)) return void reader.fail(`expected SET, REMOVE, ADD or DELETE at "${clause}"`);
    if (seen.has(clause)) return void reader.fail(`the ${clause} clause appears twice`);
    seen.add(clause);
    if (reader.done || CLAUSES.includes(reader.peek()!.text.toUpperCase()))
      return void reader.fail(`the ${clause} clause is empty`);
    do if (!readClauseAction(reader, use, clause)) return;
    while (reader.accept(','));
  }
};

const OPERAND_FUNCTIONS = new Set(['size']);

const readComparison = (reader: TokenReader, use: ExpressionUse): boolean => {
  const operandFunctions = OPERAND_FUNCTIONS;
  if (!readOperand(reader, use, operandFunctions)) return false;
  use.operators++;
  const comparator = reader.peek()?.text ?? '';
  if (COMPARATORS.includes(comparator)) return reader.accept(comparator) && readOperand(reader, use, operandFunctions);
  if (reader.accept('BETWEEN'))
    return (
      readOperand(reader, use, operandFunctions) && reader.expect('AND') && readOperand(reader, use, operandFunctions)
    );
  if (!reader.accept('IN')) return reader.fail(`expected a comparison ${reader.where()}`);
  if (!reader.expect('(')) return false;
  let count = 0;
  do {
    if (!readOperand(reader, use, operandFunctions)) return false;
    count++;
  } while (reader.accept(','));
  use.largestIn = Math.max(use.largestIn, count);
  return reader.expect(')');
};

const readPrimary = (reader: TokenReader, use: ExpressionUse): boolean => {
  if (reader.accept('NOT')) {
    use.operators++;
    return readPrimary(reader, use);
  }
  if (reader.accept('(')) return readCondition(reader, use) && reader.expect(')');
  const token = reader.peek();
  if (token?.kind === 'word' && CONDITION_FUNCTIONS.has(token.text))
    return readCall(reader, use, () => readOperand(reader, use, OPERAND_FUNCTIONS));
  return readComparison(reader, use);
};

/** A condition: comparisons and functions joined by AND, OR, NOT and parentheses. */
export const readCondition = (reader: TokenReader, use: ExpressionUse): boolean => {
  if (reader.done) return reader.fail('the condition is empty');
  if (!readPrimary(reader, use)) return false;
  while (reader.accept('AND') || reader.accept('OR')) {
    use.operators++;
    if (!readPrimary(reader, use)) return false;
  }
  return true;
};
