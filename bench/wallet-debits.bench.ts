/**
 * Wallet debits through HTTP (issue 30, item 10): `POST /v1/wallets/{id}/debits` on one wallet
 * (every request appends to one stream, so concurrent ones meet at its revision and re-decide) and
 * spread over many wallets (each connection debits its own), against two baselines of the same
 * run: a plain authenticated read (`GET /v1/customers/{id}`) and a customer create (one append to
 * a new stream, the write the HTTP benchmark measures).
 *
 *   npm run build && node -r ./scripts/register-paths.js dist/bench/wallet-debits.bench.js
 */
import { join } from 'node:path';
import { LOAD, measure, medianRun, type LoadCase, type LoadResult } from './support/load';
import { startTally, type RunningTally } from './support/tally-server';

/** The issue's target: debits at 2,000 a second or more, on one wallet and on many. */
const TARGET_PER_SECOND = 2_000;
const WALLETS = 100;
const DEBIT = JSON.stringify({ amount: '0.01', reason: 'manual' });
const CUSTOMER = JSON.stringify({ email: 'ada@example.com', name: 'Ada Lovelace' });

async function post(tally: RunningTally, path: string, body: object): Promise<{ id: string }> {
  const response = await fetch(`${tally.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${tally.sandboxKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: string };
}

/** A customer's wallet holding far more than a run can debit. */
async function fundedWallet(tally: RunningTally, customerId: string, currency: string): Promise<string> {
  const { id } = await post(tally, `/v1/customers/${customerId}/wallets`, { currency });
  await post(tally, `/v1/wallets/${id}/credits`, { amount: '100000000.00', reason: 'migration' });
  return id;
}

export async function runWalletDebitsBench(): Promise<string> {
  const tally = await startTally('thread');
  try {
    const customer = (await post(tally, '/v1/customers', { email: 'wallets@example.com' })).id;
    const single = await fundedWallet(tally, customer, 'EUR');
    const many: string[] = [];
    for (let i = 0; i < WALLETS; i++) many.push(await fundedWallet(tally, (await post(tally, '/v1/customers', { email: `w${i}@example.com` })).id, 'EUR'));
    await tally.settle();
    process.env.TALLY_BENCH_WALLET_PATHS = JSON.stringify(many.map((id) => `/v1/wallets/${id}/debits`));
    process.env.TALLY_BENCH_DEBIT_BODY = DEBIT;
    process.env.TALLY_BENCH_CONNECTIONS = String(LOAD.connections);
    const headers = { authorization: `Bearer ${tally.sandboxKey}` };
    const cases: LoadCase[] = [
      { name: 'GET /v1/customers/{id} (baseline: an authenticated read)', url: `${tally.url}/v1/customers/${customer}`, method: 'GET', headers },
      { name: 'POST /v1/customers (baseline: one append to a new stream)', url: `${tally.url}/v1/customers`, method: 'POST', body: CUSTOMER, headers },
      { name: 'POST /v1/wallets/{id}/debits, one wallet', url: `${tally.url}/v1/wallets/${single}/debits`, method: 'POST', body: DEBIT, headers },
      { name: `POST /v1/wallets/{id}/debits, ${WALLETS} wallets`, url: `${tally.url}/v1/wallets/${many[0]}/debits`, method: 'POST', body: DEBIT, headers, setupClient: join(__dirname, 'support', 'wallet-debit-client.js') },
    ];
    const runs: LoadResult[][] = cases.map(() => []);
    for (let round = 0; round < LOAD.rounds; round++) {
      for (const [i, loadCase] of cases.entries()) {
        runs[i].push(await measure(loadCase));
        await tally.settle();
      }
    }
    const [read, create, one, spread] = runs.map(medianRun);
    const number = (n: number) => Math.round(n).toLocaleString('en-US');
    const row = (r: LoadResult, target: boolean) =>
      `| ${r.name} | ${number(r.requests)} | ${number(r.requestsPerSecond)} | ${r.p50} | ${r.p99} | ${(r.requestsPerSecond / read.requestsPerSecond).toFixed(2)} | ${(r.requestsPerSecond / create.requestsPerSecond).toFixed(2)} | ${target ? `≥ ${number(TARGET_PER_SECOND)}/s ${r.requestsPerSecond >= TARGET_PER_SECOND ? '✓' : '✗'}` : ''} |`;
    const setup =
      `${LOAD.connections} connections, ${LOAD.warmupSeconds} s warm-up and ${LOAD.seconds} s measured per run, median of ${LOAD.rounds} interleaved runs per case, ` +
      `loopback, the worker in a thread, the load generator in a worker thread; debits of 0.01 from wallets funded far beyond the run.`;
    return [
      setup,
      '',
      '| Case | Requests | Requests/s | p50 (ms) | p99 (ms) | × the read | × the create | Target |',
      '|---|---:|---:|---:|---:|---:|---:|---|',
      row(read, false),
      row(create, false),
      row(one, true),
      row(spread, true),
    ].join('\n');
  } finally {
    await tally.close();
  }
}

if (require.main === module) {
  runWalletDebitsBench().then(
    (markdown) => console.log(markdown),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
