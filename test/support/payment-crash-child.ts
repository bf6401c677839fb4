/**
 * The victim of the payment crash test: a whole Tally (API and worker in process) on a data dir.
 * It creates a tenant, a customer paying by `tok_visa` and an open invoice, prints
 * `ready <sandbox key> <invoice id>`, and pays the invoice. Its provider answers, then the process
 * stops right there: it prints `charged <payment id>` and never records the answer, so the test's
 * SIGKILL lands between the provider's charge and the append of its outcome.
 *
 *   node -r ./test/support/ts-child.js test/support/payment-crash-child.ts <dataDir>
 */
import { hangAfter, openInvoiceOfCardCustomer, runVictim } from './crash-victim';
import { TallyUnderTest } from './tally';

async function main(dataDir: string): Promise<void> {
  const tally = await TallyUnderTest.start({ dataDir });
  hangAfter(tally, 'charge', (request) => `charged ${request.idempotencyKey.slice('charge:'.length)}`);
  const { key, api, invoice } = await openInvoiceOfCardCustomer(tally);
  process.stdout.write(`ready ${key} ${invoice}\n`);
  await api.post(`/v1/invoices/${invoice}/pay`, {});
}

if (require.main === module) runVictim(main);
