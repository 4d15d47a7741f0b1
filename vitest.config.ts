import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (test/unit: pure code and handlers with their AWS clients mocked, no engine, no server) and
 * `integration` (everything else, on the run's DynamoDB Local). `npm test` runs both.
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'threads',
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', LOG_LEVEL: 'silent' },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**'],
          globalSetup: ['test/support/global-setup.ts'],
          // every exchange a test has with the API through fetch is checked against the OpenAPI document
          setupFiles: ['test/support/contract-setup.ts'],
        },
      },
    ],
  },
});
