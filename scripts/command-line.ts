import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** An expected failure of a tool: its message says what is wrong and what to do, on one line. */
export class CommandFailure extends Error {}

/** Ends the tool with one line on stderr and exit code 1: never a stack trace. */
export const failWith = (message: string): never => {
  console.error(message);
  process.exit(1);
};

type Options = NonNullable<ParseArgsConfig['options']>;

/** `npm run catalog:import`, as the usage's first line names the tool. */
const toolName = (usage: string) => /^Usage: (npm (?:run )?[\w:-]+)/.exec(usage)?.[1] ?? 'this tool';

/** One line for arguments the tool cannot read, naming the options it does take. */
const argumentFailure = (error: Error & { code?: string }, usage: string, options: Options): string => {
  const unknown = /^Unknown option '([^']+)'/.exec(error.message);
  if (error.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || !unknown)
    return `${error.message}. Run with --help for the usage.`;
  const known = Object.keys(options).map((name) => `--${name}`);
  return `Unknown option ${unknown[1]}: ${toolName(usage)} takes ${[...known, '--help'].join(', ')}.`;
};

/**
 * An option of the tool that npm kept for itself, the tool not given it: `npm start --port 3001`, without `--`
 * before the tool's options, sets npm's own `port` setting (`npm_config_port` in the tool's environment) and hands
 * the tool `3001` alone, and `npm start --empty` hands it nothing.
 */
const optionNpmKept = (options: Options, given: Record<string, unknown>): string | undefined =>
  process.env.npm_lifecycle_event === undefined
    ? undefined
    : Object.keys(options).find(
        (name) => given[name] === undefined && process.env[`npm_config_${name.replaceAll('-', '_')}`] !== undefined,
      );

const npmKeptFailure = (usage: string, option: string, value: string | undefined): string =>
  `npm took --${option} for itself: put -- before the tool's options (${toolName(usage)} -- --${option}${value === undefined ? '' : ` ${value}`}).`;

/** The arguments, or: `--help` prints the usage (exit 0); anything unreadable is one line (exit 1). */
export const readArguments = <O extends Options>(usage: string, options: O, allowPositionals = false) => {
  const args = process.argv.slice(2);
  // the value npm left to the tool, when the option is one that takes a value
  const keptFailure = (option: string) =>
    npmKeptFailure(usage, option, options[option]!.type === 'string' ? args.at(-1) : undefined);
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', default: false } },
      allowPositionals,
      strict: true,
    });
  } catch (error) {
    const kept = optionNpmKept(options, {});
    if (kept && (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      return failWith(keptFailure(kept));
    return failWith(argumentFailure(error as Error, usage, options));
  }
  const kept = optionNpmKept(options, parsed.values);
  if (kept) return failWith(keptFailure(kept));
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed as unknown as {
    values: { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string };
    positionals: string[];
  };
};

/** A port number from an option or the environment, or a failure naming what was given. */
export const parsePort = (text: string): number =>
  /^\d{1,5}$/.test(text) && Number(text) <= 65535
    ? Number(text)
    : failWith(`Invalid port "${text}": give a number from 0 to 65535.`);

/** A whole number from an option, at least `least` when one is given, or a failure naming the option. */
export const parseWholeNumber = (option: string, text: string, least?: number): number =>
  /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) && (least === undefined || Number(text) >= least)
    ? Number(text)
    : failWith(`Invalid --${option} "${text}": give a whole number${least === undefined ? '' : ` from ${least}`}.`);

const AWS_HINTS: Record<string, string> = {
  CredentialsProviderError:
    'No AWS credentials were found: set AWS_PROFILE (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) and retry.',
  ExpiredTokenException: 'The AWS credentials have expired: renew them (for example aws sso login) and retry.',
  UnrecognizedClientException: 'AWS refused the credentials: check AWS_PROFILE or the access key.',
  AccessDeniedException: 'AWS denied the request: the credentials lack a permission the tool needs.',
  ResourceNotFoundException: 'The table does not exist: check TABLE_NAME (the stack output TableName) and AWS_REGION.',
  NotFoundException: 'API Gateway has no such usage plan: check --plan or USAGE_PLAN_ID (a stack output).',
};

/** One line for any failure: a tool's own message, a known AWS failure with what to do, or the error's message. */
export const describeFailure = (error: unknown): string => {
  if (error instanceof CommandFailure) return error.message;
  const name = error instanceof Error ? error.name : '';
  const hint = AWS_HINTS[name];
  if (hint) return hint;
  const message = error instanceof Error ? error.message : String(error);
  return `Failed: ${message.split('\n')[0]}`;
};

/** Runs a tool's body; whatever fails ends it in one line. */
export const runTool = async (body: () => Promise<void>): Promise<void> => {
  try {
    await body();
  } catch (error) {
    failWith(describeFailure(error));
  }
};

/** Line and column of a character offset, both counted from 1. */
const lineAndColumn = (text: string, offset: number): string => {
  const before = text.slice(0, offset);
  return `line ${before.split('\n').length}, column ${offset - before.lastIndexOf('\n')}`;
};

/**
 * Where JSON.parse stopped: the position its message names, or, for text that ends too early (a message without
 * a position), the end of the text, which is where the reader ran out.
 */
const syntaxErrorPlace = (text: string, message: string): string => {
  const position = /position (\d+)/.exec(message);
  if (position) return ` at ${lineAndColumn(text, Number(position[1]))}`;
  if (/end of JSON input/.test(message)) return ` (it ends too early, at ${lineAndColumn(text, text.length)})`;
  return '';
};

/** A JSON file, or a failure naming the file and, for a syntax error, where reading stopped. */
export const readJsonFile = async (file: string): Promise<unknown> => {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CommandFailure(
      code === 'ENOENT'
        ? `${file} does not exist: give the path of a catalog JSON file.`
        : `Cannot read ${file} (${code}).`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    throw new CommandFailure(`${file} is not valid JSON${syntaxErrorPlace(text, message)}: ${message.split('\n')[0]}`);
  }
};
