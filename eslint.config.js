import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import tseslint from 'typescript-eslint';

const foldersOf = (parent) =>
  readdirSync(join(import.meta.dirname, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${parent}/${entry.name}`);

/**
 * The layout of docs/architecture.md ("Layout"), row by row: each folder and the folders it may import (a folder
 * covers those under it). Lint refuses an import of any other folder of the repository; `anything` is refused
 * nothing. test/architecture checks that the table says the same.
 */
export const LAYOUT = [
  { folders: ['shared/domain'], mayImport: [] },
  { folders: ['shared/ports'], mayImport: ['shared/domain'] },
  { folders: ['shared/table'], mayImport: ['shared/domain'] },
  { folders: ['shared/support'], mayImport: ['shared/domain', 'shared/ports'] },
  { folders: ['shared/observability'], mayImport: [] },
  { folders: ['shared/adapters'], mayImport: ['shared/domain', 'shared/ports', 'shared/table', 'shared/support'] },
  { folders: ['shared/api'], mayImport: ['shared/domain'] },
  { folders: ['shared/http'], mayImport: ['shared/domain', 'shared/api', 'shared/support'] },
  {
    folders: ['shared/auth'],
    mayImport: [
      'shared/domain',
      'shared/ports',
      'shared/table',
      'shared/support',
      'shared/adapters',
      'shared/api',
      'shared/http',
    ],
  },
  {
    folders: ['shared/delivery', 'shared/resets', 'shared/catalog', 'shared/webhooks'],
    mayImport: [
      'shared/domain',
      'shared/ports',
      'shared/table',
      'shared/support',
      'shared/observability',
      'shared/adapters',
    ],
  },
  {
    folders: ['shared/runtime'],
    mayImport: ['shared/domain', 'shared/ports', 'shared/table', 'shared/adapters', 'shared/http'],
  },
  {
    folders: ['shared/pipeline'],
    mayImport: [
      'shared/domain',
      'shared/ports',
      'shared/support',
      'shared/observability',
      'shared/api',
      'shared/http',
      'shared/auth',
    ],
  },
  {
    folders: ['shared/handlers'],
    mayImport: [
      'shared/domain',
      'shared/ports',
      'shared/table',
      'shared/support',
      'shared/observability',
      'shared/adapters',
      'shared/api',
      'shared/http',
      'shared/runtime',
      'shared/pipeline',
    ],
  },
  { folders: ['functions/<family>'], mayImport: ['shared'] },
  { folders: ['infra/cdk'], mayImport: ['shared/domain', 'shared/table', 'shared/api', 'shared/observability'] },
  { folders: ['scripts'], mayImport: ['shared', 'functions', 'infra/cdk'] },
  { folders: ['infra/local'], mayImport: 'anything' },
  { folders: ['bench'], mayImport: 'anything' },
  { folders: ['test'], mayImport: 'anything' },
];

const FUNCTIONS = foldersOf('functions');
const ALL_FOLDERS = [...foldersOf('shared'), ...FUNCTIONS, ...foldersOf('infra'), 'scripts', 'bench', 'test'];
const covers = (allowed, folder) => folder === allowed || folder.startsWith(`${allowed}/`);

/** Every row as lint zones, one per folder (one per function): `target` may not import from `from`. */
const ARCHITECTURE_ZONES = LAYOUT.filter((row) => row.mayImport !== 'anything').flatMap(({ folders, mayImport }) =>
  folders
    .flatMap((folder) => (folder === 'functions/<family>' ? FUNCTIONS : [folder]))
    .map((folder) => ({
      target: `./${folder}`,
      from: ALL_FOLDERS.filter((other) => other !== folder && !mayImport.some((allowed) => covers(allowed, other))).map(
        (other) => `./${other}`,
      ),
      message: `Layout (docs/architecture.md): ${folders.join('/, ')}/ may import ${
        mayImport.length ? `${mayImport.map((allowed) => `${allowed}/`).join(', ')} and packages` : 'packages only'
      }; nothing else of the repository.`,
    })),
);

/** The request fields that hold DynamoDB expressions or their placeholders: written only by the expression builder. */
const EXPRESSION_FIELD =
  '/^((Update|Condition|KeyCondition|Filter|Projection)Expression|ExpressionAttribute(Names|Values))$/';

/** Packages the pure domain may use: hashing and address parsing, nothing that does I/O. */
const DOMAIN_PACKAGES = ['node:crypto', 'ipaddr.js'];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'cdk.out/',
      'coverage/',
      '.data/',
      'dist/',
      'bench/results.json',
      'test/typed-client/generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.js', '.json'] } } },
    rules: { 'import/no-restricted-paths': ['error', { zones: ARCHITECTURE_ZONES, basePath: import.meta.dirname }] },
  },
  {
    files: ['{shared,functions,infra,scripts,bench}/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      // every line counts: a file that passes 250 holds more than one thing
      'max-lines': ['error', { max: 250, skipBlankLines: false, skipComments: false }],
      // more than four and a call needs named options: one object argument
      'max-params': ['error', 4],
    },
  },
  {
    files: ['shared/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(?!\\.|${DOMAIN_PACKAGES.map((name) => name.replace(/[./]/g, '\\$&') + '$').join('|')})`,
              message: `The domain uses no package but ${DOMAIN_PACKAGES.join(' and ')}: no AWS SDK, no middy, no node:http.`,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.ts'],
    ignores: ['shared/adapters/dynamodb/expressions/**', 'test/**', 'bench/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[`Property[key.name=${EXPRESSION_FIELD}]`, `Property[key.value=${EXPRESSION_FIELD}]`].map((selector) => ({
          selector,
          message: 'DynamoDB expressions are built by shared/adapters/dynamodb/expressions (import its index).',
        })),
      ],
    },
  },
);
