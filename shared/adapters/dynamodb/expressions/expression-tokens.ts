/** A token of a DynamoDB expression, as DynamoDB's grammar splits it. */
export type Token =
  | { kind: 'name'; text: string } // #placeholder
  | { kind: 'value'; text: string } // :placeholder
  | { kind: 'word'; text: string } // an attribute name, a keyword or a function
  | { kind: 'index'; text: string } // [3]
  | { kind: 'symbol'; text: string }; // ( ) , . = <> < <= > >= + -

const PATTERNS: [Token['kind'], RegExp][] = [
  ['name', /^#[A-Za-z0-9_]+/],
  ['value', /^:[A-Za-z0-9_]+/],
  ['word', /^[A-Za-z_][A-Za-z0-9_]*/],
  ['index', /^\[\d+\]/],
  ['symbol', /^(<>|<=|>=|[()=<>,.+-])/],
];

/** The tokens of an expression, or the text where it stops making sense. */
export const tokenize = (expression: string): { tokens: Token[] } | { error: string } => {
  const tokens: Token[] = [];
  let rest = expression;
  while ((rest = rest.trimStart()).length > 0) {
    const match = PATTERNS.map(([kind, pattern]) => [kind, pattern.exec(rest)?.[0]] as const).find(([, text]) => text);
    if (!match) return { error: `cannot read "${rest.slice(0, 20)}"` };
    tokens.push({ kind: match[0], text: match[1]! });
    rest = rest.slice(match[1]!.length);
  }
  return { tokens };
};

/** Reads tokens left to right; `fail` records the first problem and makes every later read fail too. */
export class TokenReader {
  private position = 0;
  problem: string | undefined;

  constructor(private readonly tokens: readonly Token[]) {}

  get done(): boolean {
    return this.position >= this.tokens.length;
  }

  peek(offset = 0): Token | undefined {
    return this.tokens[this.position + offset];
  }

  /** The next token if it is this word (any case) or symbol; it is then consumed. */
  accept(text: string): boolean {
    const token = this.peek();
    if (!token || (token.kind !== 'word' && token.kind !== 'symbol')) return false;
    if (token.text.toUpperCase() !== text.toUpperCase()) return false;
    this.position++;
    return true;
  }

  expect(text: string): boolean {
    return this.accept(text) || this.fail(`expected "${text}" ${this.where()}`);
  }

  next(): Token | undefined {
    return this.tokens[this.position++];
  }

  where(): string {
    const token = this.peek();
    return token ? `at "${token.text}"` : 'at the end';
  }

  fail(problem: string): false {
    this.problem ??= problem;
    this.position = this.tokens.length;
    return false;
  }
}
