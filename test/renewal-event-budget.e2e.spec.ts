import { WrongExpectedRevisionError, type RecordedEvent } from '@tally/eventstore';
import { appendsOf } from '@tally/eventstore/testing/appends-of';
import { automaticPaymentId, subscriptionInvoiceId } from '@tally/invoicing';
import { TallyUnderTest, type TestTenant } from './support/tally';

const T0 = '2026-03-02T09:00:00.000Z';
const RENEWAL = '2026-04-02T09:00:00.000Z';

/** The events stored after `from`, in log order. */
async function eventsAfter(tally: TallyUnderTest, from: bigint): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (;;) {
    const page = await tally.cells.cell('eu').events.readAll({ fromPosition: events.at(-1)?.position ?? from, limit: 1_000 });
    if (page.length === 0) return events;
    events.push(...page);
  }
}

/**
 * The write budget of an auto-charged renewal's invoice and payment, counted from the event log:
 * from the reservation of the invoice's number to the invoice paid, 9 events in 4 appends (the
 * number; the invoice created, finalised and its charge started; the payment created with its
 * charge's outcome; the payment applied and the invoice paid), and no command that confirms what
 * is already true.
 */
describe('the event budget of an auto-charged renewal', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
  });
  afterAll(() => tally.stop());

  it('issues, numbers, charges and pays the renewal’s invoice in 9 events and 4 appends, no writer racing another to them', async () => {
    await api.post('/v1/plans', { code: 'budget', product_code: 'budget', currency: 'EUR', interval: 'month', components: [{ code: 'base', pricing: { model: 'flat', amount: '30.00' } }] }).expect(200);
    const clock = (await api.post('/v1/test-clocks', { frozen_time: T0 }).expect(200)).body.id as string;
    const customer = (await api.post('/v1/customers', { email: 'budget@example.com', test_clock: clock }).expect(200)).body.id as string;
    await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }).expect(200);
    const subscription = (await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'budget' }).expect(200)).body.id as string;
    await tally.settle();
    const before = await tally.cells.cell('eu').events.headPosition();
    const log = tally.cells.cell('eu').events;
    const appendToLog = log.append.bind(log);
    // The numbering reaction waits for the issue under way rather than appending the same invoice and losing.
    const refused: string[] = [];
    const append = jest.spyOn(log, 'append').mockImplementation((stream, appended, options) =>
      appendToLog(stream, appended, options).catch((error: unknown) => {
        if (error instanceof WrongExpectedRevisionError) refused.push(stream);
        throw error;
      }),
    );

    await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: RENEWAL }).expect(200);
    await tally.settle();
    append.mockRestore();
    expect(refused).toEqual([]);

    const invoiceId = subscriptionInvoiceId(subscription, RENEWAL);
    const paymentId = automaticPaymentId(invoiceId);
    const invoice = (await api.get(`/v1/invoices/${invoiceId}`).expect(200)).body as { status: string; payments: string[] };
    expect(invoice).toMatchObject({ status: 'paid', payments: [paymentId] });

    const events = await eventsAfter(tally, before!);
    const ofTheInvoice = (event: RecordedEvent) =>
      event.stream === `invoice-${invoiceId}` || event.stream === `payment-${paymentId}` || (event.type === 'InvoiceNumberReserved' && (event.data as { invoice_id: string }).invoice_id === invoiceId);
    const appends = appendsOf(events.filter(ofTheInvoice)).map(({ stream, types }) => [stream, types]);
    const sequence = appends[0][0];
    expect(sequence).toMatch(/^invoice_number_sequence-/);
    expect(appends).toEqual([
      [sequence, ['InvoiceNumberReserved']],
      [`invoice-${invoiceId}`, ['InvoiceCreated', 'InvoiceFinalized', 'InvoicePaymentStarted']],
      [`payment-${paymentId}`, ['PaymentCreated', 'PaymentSucceeded', 'PaymentSettled']],
      [`invoice-${invoiceId}`, ['InvoicePaymentApplied', 'InvoicePaid']],
    ]);
    expect(appends.flatMap(([, types]) => types)).toHaveLength(9);
  });
});

/**
 * The reads of a renewal's invoice: its customer (personal data, never kept folded, so every read
 * is a query and a decryption) is read once, for both the method to charge and the tax.
 */
describe('the reads of a renewal’s invoice', () => {
  let tally: TallyUnderTest;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => {
    let acme: TestTenant;
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
  });
  afterAll(() => tally.stop());

  it('reads the customer’s stream once for the invoice’s method and tax', async () => {
    await api.patch('/v1/tax/settings', { origin: { country: 'PT' } }).expect(200);
    await api.post('/v1/plans', { code: 'reads', product_code: 'reads', currency: 'EUR', interval: 'month', components: [{ code: 'base', pricing: { model: 'flat', amount: '30.00' } }] }).expect(200);
    const clock = (await api.post('/v1/test-clocks', { frozen_time: T0 }).expect(200)).body.id as string;
    const customer = (await api.post('/v1/customers', { email: 'reads@example.com', test_clock: clock, billing_address: { country: 'PT', city: 'Lisboa' } }).expect(200)).body.id as string;
    const subscription = (await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'reads' }).expect(200)).body.id as string;
    await tally.settle();

    const events = tally.cells.cell('eu').events;
    const read = jest.spyOn(events, 'readStream');
    // A page of invoices reads its customers in one batched read.
    const batched = jest.spyOn(events, 'readStreams');
    try {
      await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: RENEWAL }).expect(200);
      await tally.settle();
      const customerReads = [...read.mock.calls.map(([stream]) => stream), ...batched.mock.calls.flatMap(([reads]) => reads.map(({ stream }) => stream))].filter(
        (stream) => stream === `customer-${customer}`,
      );
      expect(customerReads).toHaveLength(1);
      // Its wallet (it has none) is looked up in the page's batched read of the wallets' index, never a read of its own.
      expect(read.mock.calls.filter(([stream]) => stream === `customer_wallets-${customer}`)).toEqual([]);
      expect(batched.mock.calls.flatMap(([reads]) => reads.filter(({ stream }) => stream === `customer_wallets-${customer}`))).toHaveLength(1);
    } finally {
      read.mockRestore();
      batched.mockRestore();
    }
    const invoice = (await api.get(`/v1/invoices/${subscriptionInvoiceId(subscription, RENEWAL)}`).expect(200)).body as { status: string; tax: string };
    expect(invoice).toMatchObject({ status: 'open', tax: '6.90' });
  });
});
