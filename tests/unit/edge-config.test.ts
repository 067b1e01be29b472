/** The bridge's settings: file, then EDGE_* variables, then flags; certificates together and only over mqtts. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bridgeOptions, edgeConfig } from '../../edge/config.ts';

const dir = mkdtempSync(join(tmpdir(), 'edge-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('edge configuration', () => {
  it('reads a provision-bridge file with paths beside it, then lets variables and flags override', () => {
    const config = file(
      'bridge.json',
      JSON.stringify({ serial: 'CU1', broker: 'mqtts://example.iot:8883', cert: 'cert.pem', key: 'key.pem', ca: 'ca.pem' }),
    );
    expect(edgeConfig(['--config', config, '--unit', 'tcp://127.0.0.1:7000'], {})).toEqual({
      serial: 'CU1',
      unit: 'tcp://127.0.0.1:7000',
      broker: 'mqtts://example.iot:8883',
      tls: { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem'), ca: join(dir, 'ca.pem') },
    });
    const env = { EDGE_SERIAL: 'CU2', EDGE_UNIT: 'serial:/dev/ttyUSB0' };
    expect(edgeConfig(['--config', config], env)).toMatchObject({ serial: 'CU2', unit: 'serial:/dev/ttyUSB0' });
    expect(edgeConfig(['--config', config, '--serial', 'CU3'], env)).toMatchObject({ serial: 'CU3' });
  });

  it('a local broker needs no certificate', () => {
    expect(edgeConfig(['--serial', 'CU1', '--unit', 'tcp://h:1', '--broker', 'mqtt://127.0.0.1:1883'], {})).toEqual({
      serial: 'CU1',
      unit: 'tcp://h:1',
      broker: 'mqtt://127.0.0.1:1883',
    });
  });

  it('refuses what cannot work, naming it', () => {
    const base = ['--unit', 'tcp://h:1', '--broker', 'mqtt://b:1'];
    expect(() => edgeConfig(['--unit', 'tcp://h:1'], {})).toThrow('missing --serial, --broker');
    expect(() => edgeConfig(['--serial', 'cu/1', ...base], {})).toThrow(/letters, digits/);
    expect(() => edgeConfig(['--serial', 'CU1', '--unit', 'tcp://h:1', '--broker', 'http://b'], {})).toThrow(/mqtt:\/\//);
    expect(() => edgeConfig(['--serial', 'CU1', ...base, '--cert', 'c'], {})).toThrow('go together');
    expect(() => edgeConfig(['--serial', 'CU1', ...base, '--cert', 'c', '--key', 'k', '--ca', 'a'], {})).toThrow(/mqtts/);
    expect(() => edgeConfig(['--config', join(dir, 'absent.json')], {})).toThrow(/cannot read/);
    expect(() => edgeConfig(['--config', file('list.json', '[]')], {})).toThrow(/not a JSON object/);
  });

  it('reads the certificate files into the bridge options', () => {
    const [cert, key, ca] = ['c.pem', 'k.pem', 'a.pem'].map((name) => file(name, `PEM ${name}`)) as [string, string, string];
    const options = bridgeOptions({ serial: 'CU1', unit: 'tcp://h:1', broker: 'mqtts://b:8883', tls: { cert, key, ca } });
    expect(options.tls).toEqual({ cert: 'PEM c.pem', key: 'PEM k.pem', ca: 'PEM a.pem' });
    expect(() => bridgeOptions({ serial: 'CU1', unit: 'u', broker: 'b', tls: { cert, key, ca: join(dir, 'no.pem') } })).toThrow(
      /cannot read/,
    );
  });
});
