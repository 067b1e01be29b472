/**
 * `npm run edge -- --serial S --unit tcp://host:port|serial:/dev/ttyUSB0[?baudRate=N] --broker mqtt(s)://...
 * [--cert F --key F --ca F] [--config bridge.json]` (edge/config.ts: the file, then EDGE_* variables, then
 * flags). Ctrl-C publishes the offline status and stops.
 */
import { Bridge } from './bridge.ts';
import { bridgeOptions, edgeConfig } from './config.ts';

let bridge: Bridge;
try {
  bridge = new Bridge(bridgeOptions(edgeConfig(process.argv.slice(2), process.env)));
  bridge.start();
} catch (error) {
  // Flags, files and addresses are checked before anything connects: say what is wrong, without a stack.
  console.error(`edge: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
console.log(`edge bridge for ${bridge.serial}: connecting`);
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void bridge.stop().then(() => {
      console.log(`edge bridge for ${bridge.serial}: stopped`);
      process.exit(0);
    });
  });
}
