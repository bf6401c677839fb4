import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server under test, listening on loopback. */
export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Listens on an ephemeral loopback port; close() also drops idle keep-alive connections. */
export async function listenOnLoopback(server: Server): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
