/**
 * autocannon's `setupClient` for debits spread over many wallets: each connection debits its own
 * share of the wallets named in TALLY_BENCH_WALLET_PATHS (a JSON list of debit paths), one after
 * the other, so that no two connections debit one wallet at once. Required by the load
 * generator's worker thread, which inherits the environment.
 */
import type { Client } from 'autocannon';

const paths = JSON.parse(process.env.TALLY_BENCH_WALLET_PATHS ?? '[]') as string[];
const body = process.env.TALLY_BENCH_DEBIT_BODY ?? '';
const CONNECTIONS = Number(process.env.TALLY_BENCH_CONNECTIONS ?? '10');
let connection = 0;

export = function setupClient(client: Client): void {
  const own = paths.filter((_, i) => i % CONNECTIONS === connection % CONNECTIONS);
  connection++;
  // Without headers of their own, the requests keep the run's (the key, the content type).
  client.setRequests(own.map((path) => ({ method: 'POST', path, body })));
};
