import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { dynamoCommand, localClient } from '#infra/local/dynamodb.ts';
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

  it('expires items by expiresAt, as infra/table.yml sets the deployed table (kd replies)', async () => {
    // Act
    const client = localClient(inject('dynamoEndpoint'));
    const { TimeToLiveDescription } = await client.send(new DescribeTimeToLiveCommand({ TableName: inject('tableName') }));
    client.destroy();

    // Assess
    expect(TimeToLiveDescription).toEqual({ AttributeName: 'expiresAt', TimeToLiveStatus: 'ENABLED' });
  });
});
