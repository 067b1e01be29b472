import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // One local stack (DynamoDB Local + serverless-offline) for the whole run.
    globalSetup: ['tests/setup/stack.ts'],
    setupFiles: ['tests/setup/env.ts'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    reporters: ['default', './tests/setup/summary-reporter.ts'],
    env: { LOG_REQUESTS: 'false' },
  },
});
