import type { TestProject } from 'vitest/node';
import { startStack } from '../../infra/local/stack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dynamoEndpoint: string;
    tableName: string;
    outboxDir: string;
    /** The local MQTT broker; tests/support/edge.ts starts test units against it. */
    mqttUrl: string;
    /** The stack's own control units (CONTROL_UNITS), serial -> simulator address. */
    controlUnits: Record<string, string>;
    admin: { username: string; password: string };
    /** The cloud control-unit system the functions use: the stand-in unless TCS_URL and IDM_URL name one. */
    cloudSystem: { tcsUrl: string; idmUrl: string; standIn: boolean };
    /** The key the stack signs export download links with. */
    exportUrlSecret: string;
  }
}

/** Starts the local stack on free ports once for the run, and stops it after. */
export default async function setup(project: TestProject) {
  const admin = { username: 'admin', password: 'test-admin-password' };
  // The tests drive the cloud stand-in (its faults, its log of documents), whatever system the shell names.
  delete process.env.TCS_URL;
  delete process.env.IDM_URL;
  const stack = await startStack({ admin, logRequests: false, lambdaTimeouts: false });
  project.provide('baseUrl', stack.baseUrl);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  project.provide('tableName', stack.tableName);
  project.provide('outboxDir', stack.outboxDir);
  project.provide('mqttUrl', stack.mqttUrl);
  project.provide('controlUnits', stack.units);
  project.provide('admin', admin);
  project.provide('cloudSystem', stack.cloudSystem);
  project.provide('exportUrlSecret', stack.exportUrlSecret);
  return () => stack.stop();
}
