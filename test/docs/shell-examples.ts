/** One command of a page's `sh` example, with the answer the page shows under it (`# …` lines), if any. */
export interface ExampleStep {
  page: string;
  line: number;
  command: string;
  expected?: { status?: number; body: string };
}

/** The address every example is written against; the test puts its own server's there. */
export const DOCUMENTED_URL = 'http://127.0.0.1:3000';

const FENCE = /^```sh\n([\s\S]*?)^```$/gm;

/** A command's answer as a page writes it: `# 401 {...}`, continued on `#  …` lines. */
const expectedAnswer = (lines: string[]): ExampleStep['expected'] => {
  const text = lines.map((line, index) => (index === 0 ? line.slice(2) : line.replace(/^# {0,2}/, ''))).join('');
  const status = /^(\d{3}) (.*)$/s.exec(text);
  return status ? { status: Number(status[1]), body: status[2]! } : { body: text };
};

/** Every runnable (```sh) block of a page, cut into commands, in page order. */
export const examplesOf = (page: string, markdown: string): ExampleStep[] => {
  const steps: ExampleStep[] = [];
  for (const block of markdown.matchAll(FENCE)) {
    const firstLine = markdown.slice(0, block.index).split('\n').length + 1;
    const lines = block[1]!.replace(/\n$/, '').split('\n');
    let index = 0;
    while (index < lines.length) {
      const start = index;
      const command: string[] = [];
      while (index < lines.length && !lines[index]!.startsWith('#')) command.push(lines[index++]!);
      const answer: string[] = [];
      while (index < lines.length && lines[index]!.startsWith('#')) answer.push(lines[index++]!);
      steps.push({
        page,
        line: firstLine + start,
        command: command.join('\n'),
        ...(answer.length > 0 ? { expected: expectedAnswer(answer) } : {}),
      });
    }
  }
  return steps;
};

const ANY = '\u0000any';
const isWildcardKey = (key: string) => key === '…' || key === '...';

/** The shown answer as JSON, a bare `…` (outside strings) standing for any value; undefined when it is no JSON. */
export const parseShown = (text: string): unknown => {
  let json = '';
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (inString && char === '\\') {
      json += char + text[++index]!;
      continue;
    }
    if (char === '"') inString = !inString;
    json += !inString && char === '…' ? JSON.stringify(ANY) : char;
  }
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
};

/** `…` in shown text stands for any run of characters. */
const textPattern = (shown: string) =>
  new RegExp(
    `^${shown
      .split(/…|\.\.\./)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*')}$`,
  );

/**
 * Where an actual answer differs from the one shown, or undefined when it matches: same keys and values, where
 * `…` is any value (or, in a string, any characters), a last array element `…` any further elements, and a key
 * `"…": "…"` (or `"...": "..."`) any further keys.
 */
export const mismatch = (shown: unknown, actual: unknown, path = '$'): string | undefined => {
  if (shown === ANY) return undefined;
  if (typeof shown === 'string')
    return typeof actual === 'string' && textPattern(shown).test(actual)
      ? undefined
      : `${path}: shown ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`;
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return `${path}: shown an array, got ${JSON.stringify(actual)}`;
    const open = shown.at(-1) === ANY;
    const items = open ? shown.slice(0, -1) : shown;
    if (open ? actual.length < items.length : actual.length !== items.length)
      return `${path}: shown ${items.length}${open ? ' or more' : ''} items, got ${actual.length}`;
    for (const [index, item] of items.entries()) {
      const found = mismatch(item, actual[index], `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return `${path}: shown an object, got ${JSON.stringify(actual)}`;
    const keys = Object.keys(shown).filter((key) => !isWildcardKey(key));
    const extra = Object.keys(actual).filter((key) => !keys.includes(key));
    if (keys.length === Object.keys(shown).length && extra.length > 0) return `${path}: not shown: ${extra.join(', ')}`;
    for (const key of keys) {
      if (!(key in actual)) return `${path}.${key}: shown, but absent`;
      const found = mismatch(
        (shown as Record<string, unknown>)[key],
        (actual as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
      if (found) return found;
    }
    return undefined;
  }
  return shown === actual ? undefined : `${path}: shown ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`;
};

/** Where an answer's text differs from the one shown: as JSON when both are, else as text with `…` wildcards. */
export const answerMismatch = (shown: string, actual: string): string | undefined => {
  const shownJson = parseShown(shown);
  if (shownJson !== undefined) {
    let actualJson: unknown;
    try {
      actualJson = JSON.parse(actual);
    } catch {
      return `shown JSON, got ${JSON.stringify(actual)}`;
    }
    return mismatch(shownJson, actualJson);
  }
  return textPattern(shown.trim()).test(actual.trim()) ? undefined : `shown ${shown}, got ${actual}`;
};
