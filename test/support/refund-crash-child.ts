/**
 * The victim of the refund crash test: a whole Tally (API and worker in process) on a data dir.
 * It creates a tenant, a customer paying by `tok_visa` and a paid invoice, prints
 * `ready <sandbox key> <invoice id> <payment id>`, and refunds the payment. Its provider refunds,
 * then the process stops right there: it prints `refunded <refund id>` and never records the
 * answer, so the test's SIGKILL lands between the provider's refund and the append of its outcome.
 *
 *   node -r ./test/support/ts-child.js test/support/refund-crash-child.ts <dataDir>
 */
import { hangAfter, openInvoiceOfCardCustomer, runVictim } from './crash-victim';
import { TallyUnderTest } from './tally';

async function main(dataDir: string): Promise<void> {
  const tally = await TallyUnderTest.start({ dataDir });
  hangAfter(tally, 'refund', (request) => `refunded ${request.reference}`);
  const { key, api, invoice } = await openInvoiceOfCardCustomer(tally);
  const payment = (await api.post(`/v1/invoices/${invoice}/pay`, {}).expect(200)).body.id as string;
  process.stdout.write(`ready ${key} ${invoice} ${payment}\n`);
  await api.post(`/v1/payments/${payment}/refunds`, { amount: '30.00' });
}

if (require.main === module) runVictim(main);
