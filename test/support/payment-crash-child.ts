/**
 * The victim of the payment crash test: a whole Tally (API and worker in process) on a data dir.
 * It creates a tenant, a customer paying by `tok_visa` and an open invoice, prints
 * `ready <sandbox key> <invoice id>`, and pays the invoice. Its provider answers, then the process
 * stops right there: it prints `charged <payment id>` and never records the answer, so the test's
 * SIGKILL lands between the provider's charge and the append of its outcome.
 *
 *   node -r ./test/support/ts-child.js test/support/payment-crash-child.ts <dataDir>
 */
import { PAYMENT_PROVIDER, type ChargeRequest, type PaymentProvider } from '@tally/payments';
import { TallyUnderTest } from './tally';

async function main(dataDir: string): Promise<void> {
  const tally = await TallyUnderTest.start({ dataDir });
  const provider = tally.app.get<PaymentProvider>(PAYMENT_PROVIDER);
  const charge = provider.charge.bind(provider);
  provider.charge = async (request: ChargeRequest) => {
    await charge(request);
    process.stdout.write(`charged ${request.idempotencyKey.slice('charge:'.length)}\n`);
    return new Promise(() => undefined);
  };

  const acme = await tally.tenant('Acme', 'eu');
  const api = tally.as(acme.sandbox);
  const customer = (await api.post('/v1/customers', { email: 'crash@example.com' }).expect(200)).body.id as string;
  await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }).expect(200);
  const invoice = (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', auto_charge: false, lines: [{ description: 'Consulting', quantity: '1', unit_amount: '80.00' }] }).expect(200)).body.id as string;
  await api.post(`/v1/invoices/${invoice}/finalize`).expect(200);
  process.stdout.write(`ready ${acme.sandbox} ${invoice}\n`);
  await api.post(`/v1/invoices/${invoice}/pay`, {});
}

if (require.main === module) {
  main(process.argv[2]).catch((error) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  });
}
