import { defineConfig } from 'vitest/config';

/** What every project shares. */
const shared = { testTimeout: 30_000, env: { LOG_REQUESTS: 'false' } };

export default defineConfig({
  test: {
    reporters: ['default', './tests/setup/summary-reporter.ts'],
    projects: [
      {
        // Pure code: no stack, no Java, no port (tests/setup/unit-env.ts refuses any connection); seconds.
        test: { ...shared, name: 'unit', include: ['tests/unit/**/*.test.ts'], setupFiles: ['tests/setup/unit-env.ts'] },
      },
      {
        // Against the local stack (DynamoDB Local + serverless-offline + the MQTT broker), started once for the run.
        test: {
          ...shared,
          name: 'connected',
          include: ['tests/integration/**/*.test.ts', 'tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/setup/stack.ts'],
          setupFiles: ['tests/setup/env.ts'],
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
