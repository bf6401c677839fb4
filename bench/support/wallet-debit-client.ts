/**
 * autocannon's `setupClient` for debits spread over many wallets: each connection debits its own
 * share of the wallets routed to its server, one after the other, so that no two connections
 * debit one wallet at once. TALLY_BENCH_DEBIT_ROUTES (JSON, see DebitRoutes) names, by the port of
 * each server, the debit paths of the wallets it owns and how many connections share them.
 * Required by the load generator's worker thread, which inherits the environment.
 */
import type { Client } from 'autocannon';
import type { DebitRoutes } from './wallet-routing';

const routes = JSON.parse(process.env.TALLY_BENCH_DEBIT_ROUTES ?? '{}') as DebitRoutes;
const body = process.env.TALLY_BENCH_DEBIT_BODY ?? '';
let connection = 0;

export = function setupClient(client: Client): void {
  const route = routes[String(client.opts.port)];
  if (!route) throw new Error(`no wallets are routed to port ${client.opts.port}`);
  const own = route.paths.filter((_, i) => i % route.connections === connection % route.connections);
  connection++;
  // Without headers of their own, the requests keep the run's (the key, the content type).
  client.setRequests(own.map((path) => ({ method: 'POST', path, body })));
};
