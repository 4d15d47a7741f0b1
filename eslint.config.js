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

/** The request fields that hold DynamoDB expressions or their placeholders: written only by the adapters' builders. */
const EXPRESSION_FIELD =
  '/^((Update|Condition|KeyCondition|Filter|Projection)Expression|ExpressionAttribute(Names|Values))$/';

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
  {
    files: ['**/*.ts'],
    // the reset flush's marker put moves to the builder with the sharded-counter work on that file
    ignores: ['shared/adapters/**', 'test/**', 'bench/**', 'shared/resets/flush.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[`Property[key.name=${EXPRESSION_FIELD}]`, `Property[key.value=${EXPRESSION_FIELD}]`].map((selector) => ({
          selector,
          message: 'DynamoDB expressions are built in shared/adapters (update-expression.ts, condition-expression.ts).',
        })),
      ],
    },
  },
);
