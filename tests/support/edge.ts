/**
 * Control units for tests. The stack's own units (CONTROL_UNITS) live in the global setup's process, out
 * of a test's reach; a test that drives a unit (makes it fail, stops its bridge, reads its counters) starts
 * its own here: a simulator and a bridge in the test's process, connected to the stack's broker, with the
 * `#BRIDGE` record written and the rules' `#BRIDGE_SEEN` online, so the service sees it as provisioned and up.
 * Each test file gets fresh serials, so no two files share a unit's failures or counters.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import type { CuSimulator } from '../../edge/simulator.ts';
import { type LocalUnit, startLocalUnit, untilSeen } from '../../infra/local/stack.ts';

const units = new Map<string, LocalUnit>();

afterAll(async () => {
  for (const unit of units.values()) await unit.stop();
  units.clear();
});

/** A serial no other test uses: 17 characters as a Swedish unit's (`T` + 16 hex digits). */
export function testSerial(): string {
  return `T${randomBytes(8).toString('hex').toUpperCase()}`;
}

/** The stack's own units: serial -> simulator address (for tests that only need a working unit). */
export const stackUnits = (): Record<string, string> => inject('controlUnits');

/** Starts a unit for this test file (a fresh serial unless given) and resolves once the table shows its bridge online. */
export async function startUnit(serial = testSerial()): Promise<LocalUnit> {
  if (units.has(serial)) throw new Error(`unit ${serial} is started already`);
  // Bridge logs would drown the test output; quick reconnects keep broker-restart tests short.
  const unit = await startLocalUnit(serial, inject('mqttUrl'), {
    log: () => undefined,
    reconnect: { initialMs: 50, maxMs: 1000 },
  });
  units.set(serial, unit);
  return unit;
}

function unitOf(serial: string): LocalUnit {
  const unit = units.get(serial);
  if (!unit) throw new Error(`no unit ${serial} in this test file: start it with startUnit()`);
  return unit;
}

export const simulatorOf = (serial: string): CuSimulator => unitOf(serial).simulator;

/** Stops the unit's bridge cleanly and resolves once the table shows it offline (the service answers 500 ControlUnitUnavailable at once). */
export async function stopBridge(serial: string): Promise<void> {
  await unitOf(serial).stopBridge();
  await untilSeen(serial, false);
}

/** Starts the unit's bridge again and resolves once the table shows it online. */
export async function startBridge(serial: string): Promise<void> {
  await unitOf(serial).startBridge();
  await untilSeen(serial, true);
}

/** Kills the unit's bridge without a goodbye and resolves once its last will (offline) reached the table. */
export async function killBridge(serial: string): Promise<void> {
  await unitOf(serial).bridge.kill();
  await untilSeen(serial, false);
}
