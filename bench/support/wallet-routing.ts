import { createHash } from 'node:crypto';

/** By server port: the debit paths of the wallets routed there, and the connections that share them (read by wallet-debit-client). */
export type DebitRoutes = Record<string, { paths: string[]; connections: number }>;

/**
 * The server (an index of `servers`) that owns a wallet, as a consistent-hash load balancer picks
 * it: rendezvous hashing, the server whose hash with the wallet's id is highest. Every request of a
 * wallet goes to one server, and adding a server moves only the wallets it then wins.
 */
export function ownerOf(walletId: string, servers: number): number {
  let owner = 0;
  let best = -1;
  for (let server = 0; server < servers; server++) {
    const score = createHash('sha256').update(`${walletId}/${server}`).digest().readUInt32BE(0);
    if (score > best) [owner, best] = [server, score];
  }
  return owner;
}
