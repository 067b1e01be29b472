/**
 * The credential provider the bundles load in place of the SDK's default chain (scripts/build/lambda-credentials.ts):
 * the environment Lambda sets, and nothing else.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultProvider } from '../../scripts/build/lambda-credentials.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the Lambda-only credential provider', () => {
  it("answers the execution role's credentials from the environment, as Lambda sets them", async () => {
    // Prepare
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'ASIAEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'token');

    // Act
    const credentials = await defaultProvider()();

    // Assess
    expect(credentials).toMatchObject({ accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' });
  });

  it('refuses a profile: no other provider is bundled', async () => {
    // Prepare
    vi.stubEnv('AWS_ACCESS_KEY_ID', '');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', '');
    vi.stubEnv('AWS_PROFILE', 'developer');

    // Act
    const resolving = defaultProvider()();

    // Assess
    await expect(resolving).rejects.toThrow('Unable to find environment variable credentials.');
  });
});
