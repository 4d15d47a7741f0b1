import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import tseslint from 'typescript-eslint';

const FUNCTIONS = readdirSync(join(import.meta.dirname, 'functions'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The arrows that must never exist (docs/architecture.md, "Layout"), as lint zones: `target` may not import from `from`. */
const ARCHITECTURE_ZONES = [
  {
    target: './shared/domain',
    from: ['./functions', './infra', './scripts', './bench', './test', './shared'],
    except: ['./domain'],
    message: 'The domain imports nothing outside shared/domain: return a decision and let the caller do the I/O.',
  },
  ...FUNCTIONS.map((name) => ({
    target: `./functions/${name}`,
    from: './functions',
    except: [`./${name}`],
    message: 'A function imports the domain and adapters, never another function.',
  })),
  {
    target: './infra/cdk',
    from: ['./functions', './shared/adapters', './shared/handlers', './shared/http', './shared/runtime'],
    message: 'The CDK stack imports the route table, the table layout and the domain, never function or adapter code.',
  },
  {
    target: ['./functions', './shared', './scripts', './infra/cdk'],
    from: './infra/local',
    message: 'Nothing imports the local runtime but its own entry point, tests and bench.',
  },
];

/** Files other engineers are splitting below the function-length limit; empty this list as their splits merge. */
const FILES_BEING_SPLIT = [
  'shared/delivery/recorder.ts',
  'shared/handlers/limit-operations.ts',
  'functions/per-action/limit-changes.ts',
  'scripts/simulate/model.ts',
  'bench/overhead.ts',
];

/** Packages the pure domain may use: hashing, nothing that does I/O. */
const DOMAIN_PACKAGES = ['node:crypto'];

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
    rules: { 'import/no-restricted-paths': ['error', { zones: ARCHITECTURE_ZONES }] },
  },
  {
    files: ['{shared,functions,infra,scripts,bench}/**/*.ts'],
    ignores: FILES_BEING_SPLIT,
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['shared/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(?!\\.|${DOMAIN_PACKAGES.map((name) => name.replace('/', '\\/') + '$').join('|')})`,
              message: `The domain uses no package but ${DOMAIN_PACKAGES.join(' and ')}: no AWS SDK, no middy, no node:http.`,
            },
          ],
        },
      ],
    },
  },
);
