/**
 * The bridge's settings: a JSON file (provision-bridge writes `{serial, broker, cert, key, ca}`, paths
 * relative to the file), then environment variables `EDGE_SERIAL EDGE_UNIT EDGE_BROKER EDGE_CERT EDGE_KEY
 * EDGE_CA`, then flags `--serial --unit --broker --cert --key --ca`; each later source overrides the earlier.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BridgeOptions } from './bridge.ts';

const FIELDS = ['serial', 'unit', 'broker', 'cert', 'key', 'ca'] as const;
type Field = (typeof FIELDS)[number];

export interface EdgeConfig {
  serial: string;
  /** `tcp://host:port` or `serial:<path>[?baudRate=N]`. */
  unit: string;
  broker: string;
  /** Paths of the thing's certificate, its private key and the CA that signs the broker's certificate. */
  tls?: { cert: string; key: string; ca: string };
}

export class EdgeConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EdgeConfigError';
  }
}

/** A serial is a topic level and part of the client id: letters, digits, `-` and `_`, 1 to 20 (spec: 1 to 20). */
export const SERIAL = /^[A-Za-z0-9_-]{1,20}$/;

export function edgeConfig(argv: string[], env: NodeJS.ProcessEnv): EdgeConfig {
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(['config', ...FIELDS].map((name) => [name, { type: 'string' as const }])),
    strict: true,
  });
  const settings: Partial<Record<Field, string>> = {};
  if (typeof values.config === 'string') Object.assign(settings, readConfigFile(values.config));
  for (const field of FIELDS) {
    const fromEnv = env[`EDGE_${field.toUpperCase()}`];
    if (fromEnv) settings[field] = fromEnv;
    const fromFlag = values[field];
    if (typeof fromFlag === 'string') settings[field] = fromFlag;
  }
  const { serial, unit, broker, cert, key, ca } = settings;
  const missing = (['serial', 'unit', 'broker'] as const).filter((field) => !settings[field]);
  if (!serial || !unit || !broker) {
    throw new EdgeConfigError(`missing ${missing.map((field) => `--${field}`).join(', ')} (or EDGE_* variables, or --config)`);
  }
  if (!SERIAL.test(serial)) throw new EdgeConfigError(`serial "${serial}" must be 1 to 20 letters, digits, - or _`);
  const protocol = /^(mqtts?):\/\//.exec(broker)?.[1];
  if (!protocol) throw new EdgeConfigError(`broker "${broker}" is not mqtt://host:port or mqtts://host:port`);
  const given = [cert, key, ca].filter(Boolean).length;
  if (given !== 0 && given !== 3) throw new EdgeConfigError('--cert, --key and --ca go together');
  if (given === 3 && protocol !== 'mqtts') throw new EdgeConfigError('a certificate needs an mqtts:// broker');
  return { serial, unit, broker, ...(cert && key && ca ? { tls: { cert, key, ca } } : {}) };
}

function readConfigFile(path: string): Partial<Record<Field, string>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new EdgeConfigError(`cannot read the config file ${path}: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new EdgeConfigError(`${path} is not a JSON object`);
  }
  const file: Partial<Record<Field, string>> = {};
  for (const field of FIELDS) {
    const value = (parsed as Record<string, unknown>)[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new EdgeConfigError(`${path}: "${field}" must be a string`);
    // Certificate paths are written beside the file, so they are read relative to it.
    file[field] = field === 'cert' || field === 'key' || field === 'ca' ? resolve(dirname(path), value) : value;
  }
  return file;
}

/** The bridge's options for a configuration: the certificate files read. */
export function bridgeOptions(config: EdgeConfig): BridgeOptions {
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      throw new EdgeConfigError(`cannot read ${path}: ${(error as Error).message}`);
    }
  };
  const { tls } = config;
  return {
    serial: config.serial,
    unit: config.unit,
    broker: config.broker,
    ...(tls ? { tls: { cert: read(tls.cert), key: read(tls.key), ca: read(tls.ca) } } : {}),
  };
}
