import { PAYMENT_PROVIDER, type PaymentProvider } from '@tally/payments';
import type { TallyUnderTest } from './tally';

/**
 * Makes the provider's `operation` do its work, print `said(request)` and then never answer, so
 * that a crash test's SIGKILL lands between the provider's side effect and Tally's record of it.
 */
export function hangAfter<K extends 'charge' | 'refund'>(tally: TallyUnderTest, operation: K, said: (request: Parameters<PaymentProvider[K]>[0]) => string): void {
  const provider = tally.app.get<PaymentProvider>(PAYMENT_PROVIDER);
  const done = (provider[operation] as (request: Parameters<PaymentProvider[K]>[0]) => Promise<unknown>).bind(provider);
  (provider[operation] as unknown) = async (request: Parameters<PaymentProvider[K]>[0]) => {
    await done(request);
    process.stdout.write(`${said(request)}\n`);
    return new Promise(() => undefined);
  };
}

/** A tenant, a customer paying by `tok_visa`, and an open invoice of 80.00 EUR for it. */
export async function openInvoiceOfCardCustomer(tally: TallyUnderTest): Promise<{ key: string; api: ReturnType<TallyUnderTest['as']>; invoice: string }> {
  const acme = await tally.tenant('Acme', 'eu');
  const api = tally.as(acme.sandbox);
  const customer = (await api.post('/v1/customers', { email: 'crash@example.com' }).expect(200)).body.id as string;
  await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }).expect(200);
  const invoice = (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', auto_charge: false, lines: [{ description: 'Consulting', quantity: '1', unit_amount: '80.00' }] }).expect(200)).body.id as string;
  await api.post(`/v1/invoices/${invoice}/finalize`).expect(200);
  return { key: acme.sandbox, api, invoice };
}

/** Runs a crash victim's `main` on the data dir its parent names, failing loudly. */
export function runVictim(main: (dataDir: string) => Promise<void>): void {
  main(process.argv[2]).catch((error) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  });
}
