import Big from 'big.js';
import type { RequestContext } from '@tally/cells';
import { DEFAULT_DUNNING, InvoiceNumbering, SubscriptionInvoiceIssuer, subscriptionInvoiceId, type SubscriptionInvoiceInput } from '@tally/invoicing';
import { CommandRuntime } from '@tally/runtime';
import { TallyUnderTest, type TestTenant } from './support/tally';

/** Invoices through the HTTP API: drafts, lines, finalisation with gap-free numbers, the locked states, credit notes. */
describe('invoices through the HTTP API', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;
  let customer: string;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    await api.patch('/v1/tax/settings', { origin: { country: 'DE' } }).expect(200);
    customer = (await api.post('/v1/customers', { name: 'Berlin GmbH', billing_address: { country: 'DE', city: 'Berlin' } }).expect(200)).body.id;
    await tally.settle();
  });

  afterAll(() => tally.stop());

  const draft = async (lines: object[] = [{ description: 'Workshop', quantity: '2', unit_amount: '450.00' }], extra: object = {}) =>
    (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', lines, ...extra }).expect(200)).body;

  it('creates a draft with its lines, each rounded half-even to the currency', async () => {
    const response = await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', metadata: { order: '42' }, lines: [{ description: 'Hours', quantity: '1.5', unit_amount: '0.125' }] }).expect(200);
    expect(response.headers['etag']).toBe('W/"0"');
    // 1.5 × 0.125 = 0.1875 → 0.19
    expect(response.body).toMatchObject({
      id: expect.stringMatching(/^inv_/),
      object: 'invoice',
      number: null,
      status: 'draft',
      customer_id: customer,
      subscription_id: null,
      billing_reason: 'manual',
      currency: 'EUR',
      presentment_currency: 'EUR',
      settlement_currency: 'EUR',
      fx_rate: null,
      auto_charge: true,
      subtotal: '0.19',
      discount: '0.00',
      tax: '0.00',
      total: '0.19',
      amount_paid: '0.00',
      amount_due: '0.19',
      payments: [],
      credit_notes: [],
      pdf_url: null,
      metadata: { order: '42' },
      livemode: false,
    });
    expect(response.body.lines).toEqual([
      expect.objectContaining({ id: expect.stringMatching(/^il_/), object: 'line_item', code: null, quantity: '1.5', unit_amount: '0.125', amount: '0.19', tax_amount: '0.00' }),
    ]);
    await tally.settle();
    expect((await api.get(`/v1/invoices/${response.body.id}`).expect(200)).body).toEqual(response.body);
    const events = (await api.get(`/v1/events?type=invoice.created`).expect(200)).body.data;
    expect(events.map((e: { data: { id: string } }) => e.data.id)).toContain(response.body.id);
  });

  it('adds and removes lines of a draft, recomputes its tax, and finalises it with a number and tax', async () => {
    const invoice = await draft();
    const added = (await api.post(`/v1/invoices/${invoice.id}/lines`, { description: 'Travel', quantity: '1', unit_amount: '100.00' }).expect(200)).body;
    expect(added.lines).toHaveLength(2);
    expect(added.subtotal).toBe('1000.00');
    const removed = (await api.delete(`/v1/invoices/${invoice.id}/lines/${added.lines[1].id}`).expect(200)).body;
    expect(removed.lines).toHaveLength(1);
    const taxed = (await api.post(`/v1/invoices/${invoice.id}/recompute-tax`).expect(200)).body;
    expect(taxed).toMatchObject({ status: 'draft', subtotal: '900.00', tax: '171.00', total: '1071.00', number: null });
    const finalized = await api.post(`/v1/invoices/${invoice.id}/finalize`).expect(200);
    expect(finalized.body).toMatchObject({ status: 'open', subtotal: '900.00', discount: '0.00', tax: '171.00', total: '1071.00', amount_due: '1071.00', issued_at: tally.clock.now().toISOString(), due_at: tally.clock.now().toISOString() });
    expect(finalized.body.number).toMatch(/^[0-9A-Z]{8}-\d{6}$/);
    expect(finalized.body.lines[0]).toMatchObject({ tax_rate: '19', tax_amount: '171.00' });
    expect(finalized.body.tax_breakdown).toEqual([expect.objectContaining({ jurisdiction: 'DE', rate: '19', taxable_amount: '900.00', tax_amount: '171.00' })]);
    await tally.settle();
    const types = (await api.get(`/v1/events?aggregate_id=${invoice.id}&sort=created_at:asc`).expect(200)).body.data.map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(['invoice.created', 'invoice.updated', 'invoice.finalized']));
  });

  it('refuses every change of a finalised invoice with 409 and a stable code', async () => {
    const invoice = await draft();
    const open = (await api.post(`/v1/invoices/${invoice.id}/finalize`).expect(200)).body;
    const conflict = async (request: Promise<{ status: number; body: { problem: string } }>, code: string) => {
      const response = await request;
      expect([response.status, response.body.problem]).toEqual([409, code]);
    };
    await conflict(api.post(`/v1/invoices/${invoice.id}/lines`, { description: 'More', quantity: '1', unit_amount: '1.00' }), 'invoice.not_draft');
    await conflict(api.delete(`/v1/invoices/${invoice.id}/lines/${open.lines[0].id}`), 'invoice.not_draft');
    await conflict(api.patch(`/v1/invoices/${invoice.id}`, { days_until_due: 10 }), 'invoice.not_draft');
    await conflict(api.patch(`/v1/invoices/${invoice.id}`, { description: 'changed' }), 'invoice.not_draft');
    await conflict(api.post(`/v1/invoices/${invoice.id}/finalize`), 'invoice.not_draft');
    await conflict(api.post(`/v1/invoices/${invoice.id}/recompute-tax`), 'invoice.not_draft');
    expect((await api.patch(`/v1/invoices/${invoice.id}`, { customer_id: 'cus_01JNOPE00000000000000000' }).expect(400)).body.problem).toBe('request.invalid_body');
    // Metadata may still change, as Stripe allows.
    expect((await api.patch(`/v1/invoices/${invoice.id}`, { metadata: { ref: 'A-1' } }).expect(200)).body.metadata).toEqual({ ref: 'A-1' });
    const voided = (await api.post(`/v1/invoices/${invoice.id}/void`).expect(200)).body;
    expect(voided).toMatchObject({ status: 'void', amount_due: '0.00', number: open.number });
    expect((await api.post(`/v1/invoices/${invoice.id}/void`).expect(200)).body.status).toBe('void');
    await conflict(api.post(`/v1/invoices/${invoice.id}/mark-uncollectible`), 'invoice.voided');
    await conflict(api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', amount: '1.00' }), 'invoice.voided');
  });

  it('refuses to void or write off a draft, and writes off an open invoice', async () => {
    const invoice = await draft();
    expect((await api.post(`/v1/invoices/${invoice.id}/void`).expect(409)).body.problem).toBe('invoice.not_open');
    expect((await api.post(`/v1/invoices/${invoice.id}/mark-uncollectible`).expect(409)).body.problem).toBe('invoice.not_open');
    await api.post(`/v1/invoices/${invoice.id}/finalize`).expect(200);
    expect((await api.post(`/v1/invoices/${invoice.id}/mark-uncollectible`).expect(200)).body.status).toBe('uncollectible');
    expect((await api.post(`/v1/invoices/${invoice.id}/void`).expect(409)).body.problem).toBe('invoice.uncollectible');
  });

  it('pays a zero invoice on finalisation', async () => {
    const invoice = await draft([]);
    const finalized = (await api.post(`/v1/invoices/${invoice.id}/finalize`).expect(200)).body;
    expect(finalized).toMatchObject({ status: 'paid', total: '0.00', amount_due: '0.00', number: expect.any(String) });
    await tally.settle();
    const types = (await api.get(`/v1/events?aggregate_id=${invoice.id}`).expect(200)).body.data.map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(['invoice.finalized', 'invoice.paid']));
  });

  it('issues numbered credit notes by amount and by lines, never beyond the total', async () => {
    const invoice = await draft([
      { description: 'A', quantity: '1', unit_amount: '100.00' },
      { description: 'B', quantity: '1', unit_amount: '50.00' },
    ]);
    const open = (await api.post(`/v1/invoices/${invoice.id}/finalize`).expect(200)).body;
    expect(open.total).toBe('178.50');
    const first = (await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'order_change', amount: '20.00', memo: 'Goodwill' }).expect(200)).body;
    // By amount: spread over the lines in proportion (119.00 and 59.50 with tax), each line's tax at its rate.
    expect(first).toMatchObject({
      object: 'credit_note',
      number: expect.stringMatching(new RegExp(`^${open.number.split('-')[0]}-CN-[0-9]{6}$`)),
      amount: '20.00',
      reason: 'order_change',
      memo: 'Goodwill',
      lines: [
        { line_id: open.lines[0].id, amount: '13.33', tax_amount: '2.13' },
        { line_id: open.lines[1].id, amount: '6.67', tax_amount: '1.06' },
      ],
      tax_amount: '3.19',
      type: 'pre_payment',
      outcome: { kind: 'none', refund_status: null },
    });
    const byLine = (await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'product_unsatisfactory', lines: [{ line_id: open.lines[1].id, amount: '52.83' }] }).expect(200)).body;
    // The tenant's credit-note sequence: the next number.
    const next = `${first.number.slice(0, -6)}${String(Number(first.number.slice(-6)) + 1).padStart(6, '0')}`;
    expect(byLine).toMatchObject({ number: next, amount: '52.83', lines: [{ line_id: open.lines[1].id, amount: '52.83', tax_amount: '8.44' }] });
    const tooMuchOnLine = await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', lines: [{ line_id: open.lines[1].id, amount: '0.01' }] }).expect(409);
    expect(tooMuchOnLine.body.problem).toBe('credit_note.exceeds_invoice');
    expect((await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', amount: '105.68' }).expect(409)).body.problem).toBe('credit_note.exceeds_invoice');
    expect((await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', lines: [{ line_id: 'il_nope', amount: '1.00' }] }).expect(404)).body.problem).toBe('invoice.line_not_found');
    expect((await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'because', amount: '1.00' }).expect(400)).body.problem).toBe('request.invalid_body');
    expect((await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate' }).expect(400)).body.problem).toBe('credit_note.invalid');
    // What is left to pay, credited: the invoice is paid.
    await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', amount: '105.67' }).expect(200);
    const after = (await api.get(`/v1/invoices/${invoice.id}?as_of=${tally.clock.now().toISOString()}`).expect(200)).body;
    expect(after).toMatchObject({ status: 'paid', amount_due: '0.00', total: '178.50' });
    expect(after.credit_notes.map((note: { amount: string }) => note.amount)).toEqual(['20.00', '52.83', '105.67']);
    expect((await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', amount: '0.01' }).expect(409)).body.problem).toBe('credit_note.exceeds_invoice');
    await tally.settle();
    expect((await api.get(`/v1/events?type=credit_note.created&aggregate_id=${invoice.id}`).expect(200)).body.data).toHaveLength(3);
  });

  it('numbers concurrent finalisations consecutively, without duplicates or gaps', async () => {
    const drafts = await Promise.all(Array.from({ length: 12 }, () => draft()));
    const finalized = await Promise.all(drafts.map((invoice) => api.post(`/v1/invoices/${invoice.id}/finalize`)));
    expect(finalized.map((response) => response.status)).toEqual(drafts.map(() => 200));
    await tally.settle();
    const all = (await api.get('/v1/invoices?limit=100&status=open,paid,void,uncollectible').expect(200)).body.data as { number: string }[];
    const sequence = all.map((invoice) => Number(invoice.number.split('-')[1])).sort((a, b) => a - b);
    expect(sequence).toEqual(Array.from({ length: sequence.length }, (_, i) => i + 1));
    const prefixes = new Set(all.map((invoice) => invoice.number.split('-')[0]));
    expect(prefixes.size).toBe(1);
  });

  it('keeps live and sandbox numbers apart', async () => {
    const live = tally.as(acme.live);
    const liveCustomer = (await live.post('/v1/customers', { name: 'Live' }).expect(200)).body.id;
    const invoice = (await live.post('/v1/invoices', { customer_id: liveCustomer, currency: 'EUR', lines: [{ description: 'x', quantity: '1', unit_amount: '1.00' }] }).expect(200)).body;
    const number = (await live.post(`/v1/invoices/${invoice.id}/finalize`).expect(200)).body.number;
    expect(number).toMatch(/-000001$/);
    expect((await api.get(`/v1/invoices/${invoice.id}`).expect(404)).body.problem).toBe('invoice.not_found');
  });

  it('lists by status, customer and due date', async () => {
    await tally.settle();
    const drafts = (await api.get(`/v1/invoices?status=draft&customer_id=${customer}`).expect(200)).body.data;
    expect(drafts.length).toBeGreaterThan(0);
    expect(drafts.every((invoice: { status: string }) => invoice.status === 'draft')).toBe(true);
    const due = (await api.get(`/v1/invoices?due_at[lte]=${tally.clock.now().toISOString()}&status=open`).expect(200)).body.data;
    expect(due.every((invoice: { due_at: string }) => invoice.due_at <= tally.clock.now().toISOString())).toBe(true);
    expect((await api.get('/v1/invoices?total=5').expect(400)).body.problem).toBe('request.invalid_parameter');
  });

  describe('refusals write nothing', () => {
    const refusals: [string, () => object, number, string][] = [
      ['an unknown customer', () => ({ customer_id: 'cus_01JNOPE00000000000000000', currency: 'EUR' }), 404, 'customer.not_found'],
      ['a lowercase currency', () => ({ customer_id: customer, currency: 'eur' }), 400, 'money.unknown_currency'],
      ['an unknown currency', () => ({ customer_id: customer, currency: 'XXY' }), 400, 'money.unknown_currency'],
      ['a quantity of zero', () => ({ customer_id: customer, currency: 'EUR', lines: [{ description: 'x', quantity: '0', unit_amount: '1.00' }] }), 400, 'invoice.invalid_line'],
      ['a quantity in exponent notation', () => ({ customer_id: customer, currency: 'EUR', lines: [{ description: 'x', quantity: '1e3', unit_amount: '1.00' }] }), 400, 'invoice.invalid_line'],
      ['a due date in the past', () => ({ customer_id: customer, currency: 'EUR', due_at: '2020-01-01T00:00:00Z' }), 400, 'invoice.due_at_in_past'],
      ['a due date and days', () => ({ customer_id: customer, currency: 'EUR', due_at: '2030-01-01T00:00:00Z', days_until_due: 3 }), 400, 'invoice.due_given_twice'],
      ['a line period that ends before it starts', () => ({ customer_id: customer, currency: 'EUR', lines: [{ description: 'x', quantity: '1', unit_amount: '1', period_start: '2026-06-01T00:00:00Z', period_end: '2026-05-01T00:00:00Z' }] }), 400, 'invoice.invalid_line'],
    ];

    it.each(refusals)('refuses %s', async (_name, body, status, code) => {
      await tally.settle();
      const before = (await api.get('/v1/invoices?limit=100').expect(200)).body.data.length;
      const response = await api.post('/v1/invoices', body()).expect(status);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body.problem).toBe(code);
      await tally.settle();
      expect((await api.get('/v1/invoices?limit=100').expect(200)).body.data.length).toBe(before);
    });

    it('names the fields at fault', async () => {
      const response = await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', lines: [{ description: 'x', quantity: '1', unit_amount: '1', period_start: '2026-06-01T00:00:00Z' }] }).expect(400);
      expect(response.body.errors).toEqual([expect.objectContaining({ field: 'lines[0].period_end', code: 'invoice.invalid_line' })]);
    });
  });

  describe('for the billing process', () => {
    const context = (): RequestContext => ({ tenantId: acme.tenantId, environment: 'sandbox', region: acme.region, actor: 'process:billing', requestId: null, correlationId: null, causationId: null });

    it('finalises an invoice whose number was reserved before a crash, with that number, and leaves no gap', async () => {
      const invoice = await draft();
      // The finaliser reserved a number, then died before finalising.
      const number = await tally.app.get(InvoiceNumbering).reserve(context(), invoice.id);
      await tally.settle();
      const after = (await api.get(`/v1/invoices/${invoice.id}`).expect(200)).body;
      expect(after).toMatchObject({ status: 'open', number });
      // A retry reuses it.
      expect(await tally.app.get(InvoiceNumbering).reserve(context(), invoice.id)).toBe(number);
      const next = await draft();
      const seq = (n: string) => Number(n.split('-')[1]);
      expect(seq((await api.post(`/v1/invoices/${next.id}/finalize`).expect(200)).body.number)).toBe(seq(number) + 1);
    });

    it('issues a subscription’s invoice whose append a crash prevented after its number was reserved, from the reservation, with that number', async () => {
      const subscription = 'sub_01JSUBCRASH00000000000000';
      const input: SubscriptionInvoiceInput = {
        invoice_id: subscriptionInvoiceId(subscription, '2026-07-01T00:00:00.000Z'),
        customer_id: customer,
        subscription_id: subscription,
        currency: 'EUR',
        tax_behavior: 'exclusive',
        billing_reason: 'subscription_cycle',
        period_start: '2026-07-01T00:00:00.000Z',
        period_end: '2026-08-01T00:00:00.000Z',
        lines: [{ code: 'base', description: 'base', quantity: '1', unit_amount: '49.00', amount: '49.00', period_start: '2026-07-01T00:00:00.000Z', period_end: '2026-08-01T00:00:00.000Z', proration: false, price_version: 1, tax_code: 'standard' }],
        discounts: [],
        auto_charge: false,
        finalize: true,
        payment_method_id: null,
        dunning: DEFAULT_DUNNING,
      };
      const runtime = tally.app.get(CommandRuntime);
      const executeEach = runtime.executeEach.bind(runtime);
      // The issuer dies after the reservation, before the invoice's append (its issues go as a page); the worker's reaction goes on.
      const crash = jest.spyOn(runtime, 'executeEach').mockImplementation((aggregate, items) =>
        items.some(({ id, context }) => context.actor === 'process:billing' && id === input.invoice_id) ? Promise.reject(new Error('killed')) : executeEach(aggregate, items),
      );
      try {
        await expect(tally.app.get(SubscriptionInvoiceIssuer).issue(context(), input)).rejects.toThrow('killed');
        await tally.settle();
      } finally {
        crash.mockRestore();
      }
      const issued = (await api.get(`/v1/invoices/${input.invoice_id}`).expect(200)).body;
      expect(issued).toMatchObject({ status: 'open', subscription_id: subscription, total: '58.31' });
      // The issue sent again answers that invoice, with the number it was reserved.
      expect((await tally.app.get(SubscriptionInvoiceIssuer).issue(context(), input)).invoice.number).toBe(issued.number);
      const seq = (n: string) => Number(n.split('-')[1]);
      expect(seq((await api.post(`/v1/invoices/${(await draft()).id}/finalize`).expect(200)).body.number)).toBe(seq(issued.number) + 1);
    });

    it('reserves the numbers of a burst of finalisations together, in one append, each invoice its own consecutive number', async () => {
      const invoices = await Promise.all(Array.from({ length: 5 }, () => draft()));
      const sequenceWrites = jest.spyOn(tally.app.get(CommandRuntime), 'execute');
      try {
        const numbering = tally.app.get(InvoiceNumbering);
        const numbers = await Promise.all(invoices.map((invoice) => numbering.reserve(context(), invoice.id)));
        const sequence = numbers.map((number) => Number(number.split('-')[1]));
        expect(sequence).toEqual(Array.from({ length: 5 }, (_, i) => sequence[0] + i));
        const reservations = sequenceWrites.mock.calls.filter(([aggregate]) => aggregate.type === 'invoice_number_sequence');
        const reserved = reservations.map(([, , command]) => (command as unknown as { data: { invoices: { invoice_id: string }[] } }).data.invoices.map((invoice) => invoice.invoice_id));
        expect(reserved).toEqual([invoices.map((invoice) => invoice.id)]);
      } finally {
        sequenceWrites.mockRestore();
      }
      // Nothing finalised them after reserving: the numbering reaction does, each with its own.
      await tally.settle();
      for (const invoice of invoices) expect((await api.get(`/v1/invoices/${invoice.id}`).expect(200)).body.status).toBe('open');
    });

    it('issues one invoice per (subscription, period), finalised with discounts and tax, however often it is sent', async () => {
      const invoiceId = subscriptionInvoiceId('sub_01JSUB0000000000000000000', '2026-05-01T00:00:00.000Z');
      expect(subscriptionInvoiceId('sub_01JSUB0000000000000000000', '2026-05-01T00:00:00.000Z')).toBe(invoiceId);
      const input: SubscriptionInvoiceInput = {
          invoice_id: invoiceId,
          customer_id: customer,
          subscription_id: 'sub_01JSUB0000000000000000000',
          currency: 'EUR',
          tax_behavior: 'exclusive',
          billing_reason: 'subscription_cycle',
          period_start: '2026-05-01T00:00:00.000Z',
          period_end: '2026-06-01T00:00:00.000Z',
          lines: [
            { code: 'base', description: 'base', quantity: '1', unit_amount: '49.00', amount: new Big('49.00'), period_start: '2026-05-01T00:00:00.000Z', period_end: '2026-06-01T00:00:00.000Z', proration: false, price_version: 1, tax_code: 'standard' },
            { code: 'ebooks', description: 'ebooks', quantity: '1', unit_amount: '10.00', amount: '10.00', period_start: '2026-05-01T00:00:00.000Z', period_end: '2026-06-01T00:00:00.000Z', proration: false, price_version: 2, tax_code: 'reduced' },
          ],
          discounts: [{ coupon_id: 'cpn_1', level: 'subscription', percent_off: new Big(10), amount_off: null, components: null }],
          auto_charge: true,
          finalize: true,
          payment_method_id: null,
          dunning: DEFAULT_DUNNING,
        };
      const invoices = tally.app.get(SubscriptionInvoiceIssuer);
      const [first, second] = await Promise.all([invoices.issue(context(), input), invoices.issue(context(), input)]);
      expect(second.invoice.number).toBe(first.invoice.number);
      const third = await invoices.issue(context(), input);
      expect(third.invoice).toEqual(first.invoice);
      // base 49.00 − 4.90 = 44.10, 19 % = 8.38 (8.379); ebooks 10.00 − 1.00 = 9.00, 7 % = 0.63.
      expect(first.invoice).toMatchObject({ id: invoiceId, status: 'open', billing_reason: 'subscription_cycle', subtotal: '59.00', discount: '5.90', tax: '9.01', total: '62.11' });
      expect(first.invoice.lines.map((l) => [l.code, l.price_version, l.discount_amount, l.tax_amount])).toEqual([
        ['base', 1, '4.90', '8.38'],
        ['ebooks', 2, '1.00', '0.63'],
      ]);
      await tally.settle();
      expect((await api.get(`/v1/invoices?subscription_id=sub_01JSUB0000000000000000000`).expect(200)).body.data).toHaveLength(1);
    });
  });
});
