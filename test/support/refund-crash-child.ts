/**
 * The victim of the refund crash test: a whole Tally (API and worker in process) on a data dir.
 * It creates a tenant, a customer paying by `tok_visa` and a paid invoice, prints
 * `ready <sandbox key> <invoice id> <payment id>`, and refunds the payment. Its provider refunds,
 * then the process stops right there: it prints `refunded <refund id>` and never records the
 * answer, so the test's SIGKILL lands between the provider's refund and the append of its outcome.
 *
 *   node -r ./test/support/ts-child.js test/support/refund-crash-child.ts <dataDir>
 */
import { PAYMENT_PROVIDER, type PaymentProvider, type RefundRequest } from '@tally/payments';
import { TallyUnderTest } from './tally';

async function main(dataDir: string): Promise<void> {
  const tally = await TallyUnderTest.start({ dataDir });
  const provider = tally.app.get<PaymentProvider>(PAYMENT_PROVIDER);
  const refund = provider.refund.bind(provider);
  provider.refund = async (request: RefundRequest) => {
    await refund(request);
    process.stdout.write(`refunded ${request.reference}\n`);
    return new Promise(() => undefined);
  };

  const acme = await tally.tenant('Acme', 'eu');
  const api = tally.as(acme.sandbox);
  const customer = (await api.post('/v1/customers', { email: 'crash@example.com' }).expect(200)).body.id as string;
  await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }).expect(200);
  const invoice = (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', auto_charge: false, lines: [{ description: 'Consulting', quantity: '1', unit_amount: '80.00' }] }).expect(200)).body.id as string;
  await api.post(`/v1/invoices/${invoice}/finalize`).expect(200);
  const payment = (await api.post(`/v1/invoices/${invoice}/pay`, {}).expect(200)).body.id as string;
  process.stdout.write(`ready ${acme.sandbox} ${invoice} ${payment}\n`);
  await api.post(`/v1/payments/${payment}/refunds`, { amount: '30.00' });
}

if (require.main === module) {
  main(process.argv[2]).catch((error) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  });
}
