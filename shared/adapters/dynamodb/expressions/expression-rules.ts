import { emptyUse, readCondition, readPath, readUpdate, type ExpressionUse } from './expression-grammar';
import { tokenize, TokenReader } from './expression-tokens';

/**
 * DynamoDB's documented limits on expressions (Developer Guide, "Constraints": expression parameters, attributes,
 * numbers).
 */
export const EXPRESSION_LIMITS = {
  /** Bytes of any one expression string. */
  expressionBytes: 4 * 1024,
  /** Operators and functions in one expression. */
  operators: 300,
  /** Operands of one IN. */
  inOperands: 100,
  /** Bytes of every ExpressionAttributeNames and ExpressionAttributeValues entry together. */
  substitutionBytes: 2 * 1024 * 1024,
  /** Bytes of one attribute name. */
  attributeNameBytes: 64 * 1024,
  /** Significant digits of a number. */
  numberDigits: 38,
} as const;

/** The expression fields of a request (UpdateItem, a transaction's Update or ConditionCheck, Query, Scan…). */
export interface ExpressionRequest {
  UpdateExpression?: string;
  ConditionExpression?: string;
  KeyConditionExpression?: string;
  FilterExpression?: string;
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const NAME_PLACEHOLDER = /^#[A-Za-z0-9_]+$/;
const VALUE_PLACEHOLDER = /^:[A-Za-z0-9_]+$/;

type Reading = (reader: TokenReader, use: ExpressionUse) => unknown;
const READERS: [keyof ExpressionRequest, Reading][] = [
  ['UpdateExpression', readUpdate],
  ['ConditionExpression', readCondition],
  ['KeyConditionExpression', readCondition],
  ['FilterExpression', readCondition],
  [
    'ProjectionExpression',
    (reader, use) => {
      do readPath(reader, use);
      while (reader.accept(','));
    },
  ],
];

/** Reads every expression of the request into `use`; the problems of each expression's text. */
const readExpressions = (request: ExpressionRequest, use: ExpressionUse): string[] => {
  const problems: string[] = [];
  for (const [field, read] of READERS) {
    const expression = request[field] as string | undefined;
    if (expression === undefined) continue;
    if (bytes(expression) > EXPRESSION_LIMITS.expressionBytes)
      problems.push(`${field} is longer than ${EXPRESSION_LIMITS.expressionBytes} bytes`);
    const tokens = tokenize(expression);
    if ('error' in tokens) {
      problems.push(`${field}: ${tokens.error}`);
      continue;
    }
    const own = emptyUse();
    const reader = new TokenReader(tokens.tokens);
    read(reader, own);
    if (reader.problem === undefined && !reader.done) reader.fail(`unexpected ${reader.where()}`);
    if (reader.problem !== undefined) problems.push(`${field}: ${reader.problem}`);
    if (own.operators > EXPRESSION_LIMITS.operators)
      problems.push(`${field} has ${own.operators} operators and functions, more than ${EXPRESSION_LIMITS.operators}`);
    if (own.largestIn > EXPRESSION_LIMITS.inOperands)
      problems.push(`${field} has an IN of more than ${EXPRESSION_LIMITS.inOperands} operands`);
    for (const name of own.names) use.names.add(name);
    for (const value of own.values) use.values.add(value);
    use.updated.push(...own.updated);
    use.bareNames.push(...own.bareNames);
  }
  return problems;
};

/** Placeholders declared and not used, used and not declared, malformed, or maps that are empty. */
const placeholderProblems = (request: ExpressionRequest, use: ExpressionUse): string[] => {
  const problems: string[] = [];
  const check = (kind: string, declared: Record<string, unknown> | undefined, used: Set<string>, form: RegExp) => {
    if (declared && Object.keys(declared).length === 0) problems.push(`${kind} is empty`);
    for (const placeholder of Object.keys(declared ?? {})) {
      if (!form.test(placeholder)) problems.push(`${kind}: ${placeholder} is not a placeholder`);
      if (!used.has(placeholder)) problems.push(`${kind}: ${placeholder} is declared and not used`);
    }
    for (const placeholder of used)
      if (!declared || !(placeholder in declared)) problems.push(`${kind}: ${placeholder} is used and not declared`);
  };
  check('ExpressionAttributeNames', request.ExpressionAttributeNames, use.names, NAME_PLACEHOLDER);
  check('ExpressionAttributeValues', request.ExpressionAttributeValues, use.values, VALUE_PLACEHOLDER);
  for (const [placeholder, value] of Object.entries(request.ExpressionAttributeValues ?? {}))
    if (value === undefined) problems.push(`ExpressionAttributeValues: ${placeholder} has no value`);
  return problems;
};

/** Two actions on one path, or on a path and a part of it (`a` and `a.b`), in one update. */
const overlapProblems = (request: ExpressionRequest, use: ExpressionUse, keyAttributes: readonly string[]) => {
  const problems: string[] = [];
  const resolved = use.updated.map((path) =>
    path.map((segment) => request.ExpressionAttributeNames?.[segment] ?? segment),
  );
  const text = (path: string[]) => path.join('.');
  resolved.forEach((path, index) => {
    if (path.length === 1 && keyAttributes.includes(path[0]!)) problems.push(`the update changes the key ${path[0]}`);
    for (const other of resolved.slice(index + 1)) {
      const shorter = Math.min(path.length, other.length);
      if (path.slice(0, shorter).every((segment, at) => segment === other[at]))
        problems.push(`the paths ${text(path)} and ${text(other)} overlap`);
    }
  });
  return problems;
};

const significantDigits = (text: string): number =>
  text
    .replace(/^[-+]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '').length;

/** Numbers DynamoDB cannot hold exactly, and names and values past the size limits. */
const sizeProblems = (request: ExpressionRequest): string[] => {
  const problems: string[] = [];
  let total = 0;
  for (const [placeholder, name] of Object.entries(request.ExpressionAttributeNames ?? {})) {
    total += bytes(placeholder) + bytes(name);
    if (name.length === 0 || bytes(name) > EXPRESSION_LIMITS.attributeNameBytes)
      problems.push(`ExpressionAttributeNames: ${placeholder} names an attribute of an invalid length`);
  }
  for (const [placeholder, value] of Object.entries(request.ExpressionAttributeValues ?? {})) {
    const number =
      typeof value === 'number' || typeof value === 'bigint'
        ? String(value)
        : value && typeof value === 'object' && 'value' in value && typeof value.value === 'string'
          ? value.value
          : undefined;
    if (number !== undefined && significantDigits(number) > EXPRESSION_LIMITS.numberDigits)
      problems.push(`ExpressionAttributeValues: ${placeholder} has more than 38 significant digits`);
    total +=
      bytes(placeholder) +
      bytes(JSON.stringify(value, (_, item) => (typeof item === 'bigint' ? String(item) : item)) ?? '');
  }
  if (total > EXPRESSION_LIMITS.substitutionBytes)
    problems.push(`names and values take ${total} bytes, more than ${EXPRESSION_LIMITS.substitutionBytes}`);
  return problems;
};

/**
 * What DynamoDB would refuse in a request's expressions, checked without DynamoDB: syntax, empty expressions and
 * clauses, a clause twice, placeholders declared and not used or used and not declared, empty maps, two actions on
 * overlapping paths, an update of a key attribute, the size and operator limits, numbers of more than 38 digits.
 * One rule of this code base's own is added: every attribute is named through a placeholder (a bare name that is a
 * reserved word is refused by DynamoDB; the reserved words are not listed here). Pure; no problem is `[]`.
 */
export const expressionProblems = (
  request: ExpressionRequest,
  keyAttributes: readonly string[] = ['PK', 'SK'],
): string[] => {
  const use = emptyUse();
  const problems = readExpressions(request, use);
  for (const name of new Set(use.bareNames)) problems.push(`the attribute ${name} is named without a placeholder`);
  return [
    ...problems,
    ...placeholderProblems(request, use),
    ...overlapProblems(request, use, keyAttributes),
    ...sizeProblems(request),
  ];
};
