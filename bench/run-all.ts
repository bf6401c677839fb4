/**
 * Every benchmark in sequence, each printed as a markdown section.
 *
 *   npm run bench
 */
import { runAppendBench } from './append.bench';
import { runBillingRunBench } from './billing-run.bench';
import { runCatchUpBench } from './catch-up.bench';
import { runEdgeOverheadBench } from './edge-overhead.bench';
import { runHttpBench } from './http.bench';
import { runPricingBench } from './pricing.bench';
import { runReadYourWritesBench } from './read-your-writes.bench';
import { runWalletDebitsBench } from './wallet-debits.bench';

const BENCHES: { title: string; run: () => Promise<string> }[] = [
  { title: 'Event store (SQLite)', run: runAppendBench },
  { title: 'Projection catch-up', run: runCatchUpBench },
  { title: 'HTTP: create and retrieve customers', run: runHttpBench },
  { title: 'Per-request cost of authentication, rate limits and idempotency', run: () => runEdgeOverheadBench() },
  { title: 'Read-your-writes', run: runReadYourWritesBench },
  { title: 'Pricing engine', run: runPricingBench },
  { title: 'Billing run: due timers to finalised invoices', run: () => runBillingRunBench() },
  { title: 'Wallet debits through HTTP', run: runWalletDebitsBench },
];

export async function runAll(): Promise<void> {
  for (const { title, run } of BENCHES) {
    console.log(`## ${title}\n\n${await run()}\n`);
  }
}

if (require.main === module) {
  runAll().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
