/**
 * The local MQTT broker: aedes in this process on a TCP port (0: a free one), in memory. It speaks MQTT
 * 3.1.1 only, so MQTT 5 clients fall back (the bridge does; the kd contract's payloads carry everything).
 */
import { createServer, type Socket } from 'node:net';
import { Aedes } from 'aedes';

export interface LocalBroker {
  url: string;
  port: number;
  /** Closes the broker and every client connection; its retained messages and sessions are gone. */
  stop(): Promise<void>;
}

export async function startBroker(port = 0, host = '127.0.0.1'): Promise<LocalBroker> {
  const aedes = await Aedes.createBroker();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    aedes.handle(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the broker has no TCP address');
  return {
    url: `mqtt://${host}:${address.port}`,
    port: address.port,
    stop: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
