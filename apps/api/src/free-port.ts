import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A TCP port free on this machine now: the system picks it for a listener that closes at once. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
