import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where results made from the repository's files are kept between runs. They are keyed by content, so a run never
 * takes one made from other files; the folder can be deleted at any time (a run then makes each result once).
 */
export const CONTENT_CACHE_DIR = join('node_modules', '.cache', 'delivery-limits-tests');

/** The folders whose files a build may read: a file added or removed there may change what an import resolves to. */
const SOURCE_FOLDERS = ['functions', 'shared', 'infra', 'test/typed-client'];

interface Entry<T> {
  key: string;
  inputs: Record<string, string>;
  value: T;
}

const hashOf = (content: string | Buffer): string => createHash('sha256').update(content).digest('hex');

export const fileHash = (file: string): string | undefined => {
  try {
    return hashOf(readFileSync(file));
  } catch {
    return undefined;
  }
};

/** The names of every source file, and the lock file's content: what decides where an import leads. */
const resolutionKey = (): string =>
  hashOf(
    JSON.stringify([
      SOURCE_FOLDERS.flatMap((folder) => readdirSync(folder, { recursive: true }).map(String).sort()),
      fileHash('package-lock.json'),
    ]),
  );

const readEntry = <T>(file: string): Entry<T> | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Entry<T>;
  } catch {
    return undefined;
  }
};

const isCurrent = <T>(entry: Entry<T> | undefined, key: string): entry is Entry<T> =>
  entry?.key === key && Object.entries(entry.inputs).every(([input, hash]) => fileHash(input) === hash);

/**
 * What `make()` answers, kept with the content of every file it read (`inputs`, which it reports): a later run with
 * the same `key` (the tool's version and options), the same files and the same source file names takes it instead
 * of making it again. Only a success is kept: `make()` throwing keeps nothing. A fresh clone makes it once.
 */
export const cachedByContent = async <T>(
  name: string,
  key: unknown,
  make: () => Promise<{ value: T; inputs: string[] }>,
): Promise<T> => {
  const file = join(CONTENT_CACHE_DIR, `${name}.json`);
  const fullKey = hashOf(JSON.stringify([key, resolutionKey()]));
  const kept = readEntry<T>(file);
  if (isCurrent(kept, fullKey)) return kept.value;
  const { value, inputs } = await make();
  const entry: Entry<T> = {
    key: fullKey,
    inputs: Object.fromEntries(inputs.map((input) => [input, fileHash(input) ?? 'absent'])),
    value,
  };
  mkdirSync(CONTENT_CACHE_DIR, { recursive: true });
  // written whole, then renamed: a run beside this one reads the whole entry or none
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(partial, JSON.stringify(entry));
  renameSync(partial, file);
  return value;
};
