import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/api/error-codes';
import { withErrorCodeTable } from '../../scripts/error-code-table';
import { useTestService } from '../support/local-service';
import { answerMismatch, DOCUMENTED_URL, examplesOf, type ExampleStep } from './shell-examples';

/** The pages whose `sh` examples run, in the order a reader meets them. */
const RUNNABLE_PAGES = ['README.md', 'docs/partner-guide.md', 'docs/local-server.md', 'docs/troubleshooting.md'];
const read = (page: string) => readFileSync(page, 'utf8');
/** README, every page it links to, and every page in docs/: each has a table of contents, but for the changelog. */
const PAGES = [
  ...new Set([
    'README.md',
    ...[...read('README.md').matchAll(/\]\(([^)#\s]+\.md)\)/g)].map((link) => link[1]!),
    ...readdirSync('docs').map((file) => join('docs', file)),
  ]),
];
const WITHOUT_CONTENTS = ['README.md', 'CHANGELOG.md'];

/** A heading's anchor, as GitHub makes it. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-');

const END_OF_STEP = '@@end-of-step@@';
const run = promisify(execFile);

/**
 * All steps as one bash script, so that a variable one block sets (a token, a cookie jar) serves the next. Each
 * step's output ends with a marker; curl writes each answer's status to stderr, where the page cannot see it.
 */
const script = (steps: ExampleStep[], url: string) =>
  [
    `curl() { command curl -w '%{stderr}@@status %{http_code}\\n' "$@"; }`,
    ...steps.map(
      (step) =>
        `{\n${step.command.replaceAll(DOCUMENTED_URL, url)}\n}; printf '\\n${END_OF_STEP}\\n'; printf '${END_OF_STEP}\\n' >&2`,
    ),
  ].join('\n');

const ctx = useTestService();

describe('the documentation', () => {
  it('answers every sh example as the page shows, run in order on a fresh local server', async () => {
    const steps = RUNNABLE_PAGES.flatMap((page) => examplesOf(page, read(page)));
    expect(steps.filter((step) => step.expected).length).toBeGreaterThan(30);
    // an sh block talks to the server; what would build, start or deploy belongs in a console block
    expect(steps.filter((step) => /\bnp[mx] /.test(step.command)).map((step) => step.command)).toEqual([]);
    const { stdout, stderr } = await run('bash', ['-c', script(steps, ctx.service.url)], {
      timeout: 60_000,
      cwd: tmpdir(),
    });
    const outputs = stdout.split(`\n${END_OF_STEP}\n`);
    const statuses = stderr.split(`${END_OF_STEP}\n`).map((text) => [...text.matchAll(/@@status (\d+)/g)].at(-1)?.[1]);
    const failures = steps.flatMap((step, index) => {
      if (!step.expected) return [];
      const where = `${step.page}:${step.line} ${step.command.split('\n')[0]}`;
      const status = Number(statuses[index]);
      if (step.expected.status !== undefined && status !== step.expected.status)
        return [`${where}\n  status ${status}, the page shows ${step.expected.status}`];
      if (step.expected.status === undefined && status >= 400)
        return [`${where}\n  status ${status}: an error the page does not show`];
      const found = answerMismatch(step.expected.body, outputs[index]!);
      return found ? [`${where}\n  ${found}`] : [];
    });
    expect(failures.join('\n')).toBe('');
  }, 90_000);

  it('the partner guide explains every error code the service answers, in the table made from their one list', () => {
    const guide = read('docs/partner-guide.md');
    expect(guide, 'run npm run docs:error-codes').toBe(withErrorCodeTable(guide));
    const missing = Object.keys(ERROR_CODES).filter((code) => !guide.includes(`| \`${code}\` |`));
    expect(missing).toEqual([]);
  });

  it('README and the architecture page link to the error codes instead of listing them', () => {
    for (const page of ['README.md', 'docs/architecture.md']) {
      const named = Object.keys(ERROR_CODES).filter((code) => read(page).includes(code));
      expect(named.length, `${page} names ${named.join(', ')}`).toBeLessThan(3);
    }
    expect(read('README.md')).toContain('(docs/partner-guide.md#errors)');
    expect(read('docs/architecture.md')).toMatch(
      /`shared\/api\/error-codes\.ts`[^.]*\[[^\]]*\]\(partner-guide\.md#errors\)/,
    );
  });

  it('README stays a front door of at most 200 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(200);
  });

  it('every page has a table of contents, and every relative link and anchor resolves', () => {
    const prose = (page: string) => read(page).replace(/^```[\s\S]*?^```$/gm, '');
    /** A list of links into the page before its first section (a `## Contents` section counts as the list). */
    const hasContents = (text: string) => {
      const firstSection = text.search(/^## (?!Contents$)/m);
      return /^\s*(?:-|\d+\.) \[[^\]]+\]\(#[^)]+\)/m.test(firstSection < 0 ? text : text.slice(0, firstSection));
    };
    const anchors = (page: string) =>
      new Set([...prose(page).matchAll(/^#{1,6} (.+)$/gm)].map((heading) => slug(heading[1]!)));
    const broken: string[] = [];
    for (const page of PAGES) {
      if (!existsSync(page)) {
        broken.push(`README.md: ${page}`);
        continue;
      }
      if (!WITHOUT_CONTENTS.includes(page))
        expect(hasContents(prose(page)), `${page} has a table of contents`).toBe(true);
      for (const [, target] of prose(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [file, anchor] = target!.split('#');
        const linked = file ? resolve(dirname(page), file) : resolve(page);
        if (!existsSync(linked)) broken.push(`${page}: ${target}`);
        else if (anchor && linked.endsWith('.md') && !anchors(linked).has(anchor)) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
    expect(PAGES).toContain('docs/partner-guide.md');
  });

  it('lists every section of a page in its table of contents', () => {
    const unlisted = PAGES.filter((page) => !WITHOUT_CONTENTS.includes(page)).flatMap((page) => {
      const text = read(page).replace(/^```[\s\S]*?^```$/gm, '');
      const linked = new Set([...text.matchAll(/^\s*(?:-|\d+\.) \[[^\]]+\]\(#([^)]+)\)/gm)].map((link) => link[1]));
      return [...text.matchAll(/^## (.+)$/gm)]
        .map((heading) => heading[1]!)
        .filter((title) => title !== 'Contents' && !linked.has(slug(title)))
        .map((title) => `${page}: ${title}`);
    });
    expect(unlisted).toEqual([]);
  });
});
