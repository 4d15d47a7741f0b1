import { originList } from '../../shared/api/browser-headers';
import { SettingError } from './setting-error';

/** A context setting's value as given (`-c key=value` or `cdk.json`), or `fallback`. */
export type Context = (key: string, fallback: string) => string;

/** How the app's context is looked up: a value as given, or undefined. */
export type ContextLookup = (key: string) => unknown;

/**
 * The settings reader the stack is built with: every key the stack reads goes through `context` or `lookup`, and
 * is recorded, so that a setting given but never read (a mistyped `-c bogusKey=1`) can be refused.
 */
export const recordingReader = (lookup: ContextLookup) => {
  const read = new Set<string>();
  const recorded: ContextLookup = (key) => {
    read.add(key);
    return lookup(key);
  };
  const context: Context = (key, fallback) => String(recorded(key) ?? fallback);
  return { context, lookup: recorded, read };
};

/**
 * Refuses a setting given that the stack did not read. A setting is a context key without a `:`: the CDK's feature
 * flags (`@aws-cdk/…:…`) and its own keys (`aws:cdk:…`), which `cdk.json` and the CLI add, all have one.
 */
export const refuseUnreadSettings = (given: Record<string, unknown>, read: ReadonlySet<string>): void => {
  const unread = Object.keys(given).filter((key) => !key.includes(':') && !read.has(key));
  if (unread.length > 0)
    throw new SettingError(
      `${unread.map((key) => `-c ${key}=${String(given[key])}`).join(', ')}: the stack reads no such setting${unread.length > 1 ? 's' : ''} with these settings; check the name against docs/operations.md, "Context settings"`,
    );
};

/** What a numeric setting may be: a whole number within these bounds. */
export interface NumberBounds {
  least: number;
  most?: number;
  /** Why the bounds are what they are, when a reader could not tell. */
  why?: string;
}

const WHOLE_NUMBER = /^(0|[1-9]\d*)$/;

const boundsText = ({ least, most, why }: NumberBounds): string => {
  const kind =
    most !== undefined
      ? `a whole number from ${least} to ${most}`
      : least === 1
        ? 'a positive whole number'
        : `a whole number of at least ${least}`;
  return why ? `${kind} (${why})` : kind;
};

/**
 * A numeric setting, or `fallback` when not given: anything but a whole number within `bounds` stops synth, naming
 * the setting, before a value such as `-c rateLimit=lots` reaches the template or a function's environment.
 */
export const wholeNumberSetting = (context: Context, key: string, fallback: number, bounds: NumberBounds): number => {
  const given = context(key, String(fallback));
  const value = Number(given);
  const within = value >= bounds.least && (bounds.most === undefined || value <= bounds.most);
  if (!WHOLE_NUMBER.test(given) || !Number.isSafeInteger(value) || !within)
    throw new SettingError(`-c ${key}=${context(key, '')} must be ${boundsText(bounds)}`);
  return value;
};

const POSITIVE: NumberBounds = { least: 1 };

/** A positive whole number, or `fallback` when not given. */
export const positiveSetting = (context: Context, key: string, fallback: number): number =>
  wholeNumberSetting(context, key, fallback, POSITIVE);

/** A positive whole number, or `undefined` when not given. */
export const optionalPositiveSetting = (context: Context, key: string): number | undefined =>
  context(key, '') === '' ? undefined : positiveSetting(context, key, 0);

/** `true` or `false`, or `fallback` when not given: `-c production=yes` stops synth rather than deploying development. */
export const booleanSetting = (context: Context, key: string, fallback = false): boolean => {
  const given = context(key, String(fallback));
  if (given !== 'true' && given !== 'false') throw new SettingError(`-c ${key}=${given} must be true or false`);
  return given === 'true';
};

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Browser origins, comma-separated (spaces around the commas allowed), or none: each exactly as a browser sends it
 * in `Origin` (`https://host[:port]`, no path, no trailing slash; `http://` only on the loopback address), since the
 * functions answer CORS for an exact match only, and `*` would offer the session cookie to any site.
 */
export const originsSetting = (context: Context, key: string): string[] => {
  const origins = originList(context(key, ''));
  for (const origin of origins) {
    const url = URL.canParse(origin) ? new URL(origin) : undefined;
    const secure = url?.protocol === 'https:' || (url?.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
    if (!url || url.origin !== origin || !secure)
      throw new SettingError(
        `-c ${key}=${context(key, '')}: "${origin}" is not an origin as a browser sends it (https://host[:port], no path; http:// only for localhost)`,
      );
  }
  return origins;
};

const STAGE_NAME = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The stage's name, `dev` when not given (production must give one: it would deploy `DeliveryLimits-dev`): it names
 * the stacks (`DeliveryLimits-<stage>`), which take nothing else from it.
 */
export const stageSetting = (context: Context, production: boolean): string => {
  if (production && context('stage', '') === '')
    throw new SettingError(
      'production=true needs -c stage=<name>: without one it would deploy the stacks of stage dev',
    );
  const stage = context('stage', 'dev');
  if (!STAGE_NAME.test(stage))
    throw new SettingError(`-c stage=${stage} must be 1 to 64 letters, digits or hyphens: it names the stack`);
  return stage;
};
