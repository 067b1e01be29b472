/**
 * The part of the IoT data-plane SDK the kd publisher uses. `iot-publisher.ts` loads it with `import()` on first
 * use, and the build makes it a self-contained file of its own (scripts/build.ts, isolated SDKs).
 */
export { IoTDataPlaneClient, PublishCommand } from '@aws-sdk/client-iot-data-plane';
