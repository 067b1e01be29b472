import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dynamoCommand } from '#infra/local/dynamodb.ts';
import { root } from '../../scripts/build.ts';

describe('DynamoDB Local as the project starts it', () => {
  it('runs with telemetry off: the flag newer jars read and the variable the shipped 1.25.1 reads', () => {
    const { args, env } = dynamoCommand({ port: 8000 });

    expect(args).toContain('-disableTelemetry');
    expect(env.DDB_LOCAL_TELEMETRY).toBe('0');
  });

  it('leaves no telemetry metadata file in the repository once the test run has started it', () => {
    // The run's stack (tests/setup/stack.ts) started DynamoDB Local from the repository before any test.
    expect(existsSync(join(root, 'dynamodb-local-metadata.json'))).toBe(false);
  });
});
