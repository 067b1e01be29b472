/** `npm run cu-simulator -- --port N [--serial S] [--host H] [--key K] [--fail code:N|garbage|bad-crc|silence|delay:MS]` */
import { parseArgs } from 'node:util';
import { CuSimulator, parseFailure } from './simulator.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    serial: { type: 'string', default: 'SIM00000000000001' },
    key: { type: 'string' },
    fail: { type: 'string' },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port "${values.port}" is not a port`);
const simulator = new CuSimulator({ serial: values.serial, key: values.key });
if (values.fail !== undefined) simulator.failAlways(parseFailure(values.fail));
const bound = await simulator.listen(port, values.host);
console.log(`control-unit simulator ${values.serial} on tcp://${values.host}:${bound}`);
const stop = (): void => {
  void simulator.close().then(() => console.log('counters', simulator.counters()));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
