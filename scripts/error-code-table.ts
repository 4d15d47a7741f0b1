import { readFileSync, writeFileSync } from 'node:fs';
import { ERROR_CODES } from '../shared/api/error-codes';
import { CommandFailure, readArguments, runTool } from './command-line';

export const GUIDE = 'docs/partner-guide.md';
const START = '<!-- error codes: made from shared/api/error-codes.ts by npm run docs:error-codes -->';
const END = '<!-- end of the error codes -->';

/** The partner guide's table of error codes, one row per code of `ERROR_CODES`, in its order. */
export const errorCodeTable = (): string =>
  [
    '| code | status | meaning | fix |',
    '|---|---|---|---|',
    ...Object.entries(ERROR_CODES).map(
      ([code, { status, meaning, fix }]) => `| \`${code}\` | ${status} | ${meaning} | ${fix} |`,
    ),
  ].join('\n');

/** The guide with the table between its markers made anew; a guide without both markers is a failure. */
export const withErrorCodeTable = (guide: string): string => {
  const start = guide.indexOf(START);
  const end = guide.indexOf(END);
  if (start < 0 || end < start) throw new CommandFailure(`${GUIDE} has lost the markers of its error-code table.`);
  return `${guide.slice(0, start + START.length)}\n${errorCodeTable()}\n${guide.slice(end)}`;
};

const USAGE = `Usage: npm run docs:error-codes
  Writes the table of error codes in ${GUIDE} from shared/api/error-codes.ts, the one list of them (the OpenAPI
  document's ErrorEnvelope is made from it too). Change a code there, then run this.`;

if (process.argv[1]?.endsWith('error-code-table.ts')) {
  readArguments(USAGE, {});
  await runTool(async () => {
    writeFileSync(GUIDE, withErrorCodeTable(readFileSync(GUIDE, 'utf8')));
    console.log(`Wrote the error codes of ${GUIDE}`);
  });
}
