import type { TestProject } from 'vitest/node';
import { startStack } from '../../infra/local/stack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dynamoEndpoint: string;
    tableName: string;
    outboxDir: string;
    admin: { username: string; password: string };
  }
}

/** Starts the local stack on free ports once for the run, and stops it after. */
export default async function setup(project: TestProject) {
  const admin = { username: 'admin', password: 'test-admin-password' };
  const stack = await startStack({ admin, logRequests: false });
  project.provide('baseUrl', stack.baseUrl);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  project.provide('tableName', stack.tableName);
  project.provide('outboxDir', stack.outboxDir);
  project.provide('admin', admin);
  return () => stack.stop();
}
