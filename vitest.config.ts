import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // every answer of the API a test receives is checked against the OpenAPI document
    setupFiles: ['test/support/contract-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'threads',
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', LOG_LEVEL: 'silent' },
  },
});
