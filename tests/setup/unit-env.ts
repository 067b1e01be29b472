/**
 * The unit project runs without the local stack: no DynamoDB Local, no serverless-offline, no broker, and no network
 * at all. A unit test that opens a connection or a listening socket fails here at once, so a test that needs the stack
 * cannot hide in the unit project (it belongs in tests/integration or tests/e2e).
 */
import net from 'node:net';

const refuse = (what: string) => () => {
  throw new Error(`unit tests open no ${what}: move this test to tests/integration or tests/e2e`);
};
net.Socket.prototype.connect = refuse('connection') as unknown as typeof net.Socket.prototype.connect;
net.Server.prototype.listen = refuse('listening socket') as unknown as typeof net.Server.prototype.listen;

// Modules that read their table and region at import find names, never a live endpoint.
process.env.TABLE_NAME = 'unit-tests-have-no-table';
process.env.AWS_REGION = 'local';
