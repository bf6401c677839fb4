import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { automaticPaymentId, DEFAULT_DUNNING, walletSettlementPaymentId } from './collection-terms';
import { invoiceDecider, type CreateInvoice, type FinalizeInvoice, type IssueCreditNote, type IssueInvoice } from './invoice.decider';
import type { CreditNoteDecided, InvoiceCreated, InvoiceEvent, InvoiceFinalized, InvoiceLineData, InvoiceTotalsData, PaymentNotAppliedReason } from './invoice.events';
import { invoiceNumberSequenceDecider } from './invoice-number-sequence';

const spec = DeciderSpecification.for(invoiceDecider);
const id = 'inv_01JINVOICE000000000000000';
const now = '2026-05-01T10:00:00.000Z';

const line = (line_id: string, amount: string): InvoiceLineData => ({
  line_id,
  code: null,
  description: line_id,
  quantity: '1',
  unit_amount: amount,
  amount,
  period_start: null,
  period_end: null,
  proration: false,
  price_version: null,
  tax_code: 'standard',
  metadata: {},
});

const create: CreateInvoice = {
  type: 'CreateInvoice',
  data: {
    invoice_id: id,
    customer_id: 'cus_1',
    subscription_id: null,
    billing_reason: 'manual',
    currency: 'EUR',
    tax_behavior: 'exclusive',
    auto_charge: true,
    description: null,
    due_at: null,
    days_until_due: null,
    period_start: null,
    period_end: null,
    metadata: {},
    lines: [line('il_a', '100.00'), line('il_b', '50.00')],
    discounts: [],
    now,
  },
};
const { now: _now, ...createdData } = create.data;
const created: InvoiceCreated = { type: 'InvoiceCreated', data: createdData };

const totals = (total = '178.50'): InvoiceTotalsData => ({
  lines: [
    { line_id: 'il_a', discount_amount: '0', tax_amount: total === '0' ? '0' : '19', tax_rate: '19', total: total === '0' ? '0' : '119' },
    { line_id: 'il_b', discount_amount: '0', tax_amount: total === '0' ? '0' : '9.5', tax_rate: '19', total: total === '0' ? '0' : '59.5' },
  ],
  subtotal: total === '0' ? '0' : '150',
  discount: '0',
  tax: total === '0' ? '0' : '28.5',
  total,
  tax_breakdown: [],
  discounts: [],
  tax_table_version: null,
  reverse_charge: false,
});
const finalize = (number = 'ABC-000001', total?: string): FinalizeInvoice => ({ type: 'FinalizeInvoice', data: { invoice_id: id, number, now, line_ids: ['il_a', 'il_b'], totals: totals(total) } });
/** Whose money settles the invoice, as its opening and closing events name it. */
const payer = { customer_id: 'cus_1', currency: 'EUR' };
const finalized: InvoiceFinalized = { type: 'InvoiceFinalized', data: { invoice_id: id, ...payer, number: 'ABC-000001', issued_at: now, due_at: now, totals: totals(), awaits_payment: false } };
/** Finalised with nothing to collect it (sent for payment, or auto-charged with no method known): it awaits its customer's payment. */
const awaiting = (due_at = now): InvoiceFinalized => ({ ...finalized, data: { ...finalized.data, due_at, awaits_payment: true } });
const paid: InvoiceEvent = { type: 'InvoicePaid', data: { invoice_id: id, ...payer, subscription_id: null } };
const voided: InvoiceEvent = { type: 'InvoiceVoided', data: { invoice_id: id, ...payer } };
const uncollectible: InvoiceEvent = { type: 'InvoiceMarkedUncollectible', data: { invoice_id: id, ...payer } };
const payment = (payment_id: string, amount: string) => ({ type: 'ApplyInvoicePayment' as const, data: { invoice_id: id, payment_id, amount } });
const applied = (payment_id: string, amount: string): InvoiceEvent => ({ type: 'InvoicePaymentApplied', data: { invoice_id: id, payment_id, amount } });
const credit = (data: Partial<IssueCreditNote['data']>): IssueCreditNote => ({
  type: 'IssueCreditNote',
  data: { invoice_id: id, credit_note_id: 'cn_1', reason: 'duplicate', memo: null, amount: null, lines: null, now, ...data },
});
const void_ = { type: 'VoidInvoice' as const, data: { invoice_id: id } };
const NO_OUTCOME = { outcome: { kind: 'none', refund_status: null }, refund_id: null, payment_id: null } as const;
const mark = { type: 'MarkInvoiceUncollectible' as const, data: { invoice_id: id } };
const started = (payment_id: string, amount = '178.50'): InvoiceEvent => ({
  type: 'InvoicePaymentStarted',
  data: { invoice_id: id, payment_id, customer_id: 'cus_1', subscription_id: null, payment_method_id: 'pm_1', amount, currency: 'EUR', reason: 'manual', dunning: null },
});
const notApplied = (payment_id: string, amount: string, reason: PaymentNotAppliedReason): InvoiceEvent => ({ type: 'InvoicePaymentNotApplied', data: { invoice_id: id, payment_id, amount, reason } });
const canceled = (payment_id: string, awaits_payment = true): InvoiceEvent => ({ type: 'InvoicePaymentCanceled', data: { invoice_id: id, ...payer, payment_id, awaits_payment } });

describe('invoice decider', () => {
  describe('CreateInvoice', () => {
    it('creates a draft', () => spec.given([]).when(create).then([created]));
    it('does nothing when the stream exists (a retried process)', () => spec.given([created]).when(create).thenNothingHappens());
    it('refuses an unknown currency', () => spec.given([]).when({ ...create, data: { ...create.data, currency: 'EURO' } }).thenFails('money.unknown_currency'));
    it('refuses a due date in the past', () => spec.given([]).when({ ...create, data: { ...create.data, due_at: '2026-04-01T00:00:00.000Z' } }).thenFails('invoice.due_at_in_past'));
    it('refuses an amount finer than the currency', () => spec.given([]).when({ ...create, data: { ...create.data, lines: [line('il_a', '1.005')] } }).thenFails('invoice.invalid_line'));
  });

  describe('drafts', () => {
    it('updates only what changes', () =>
      spec
        .given([created])
        .when({ type: 'UpdateInvoiceDraft', data: { invoice_id: id, description: 'June', auto_charge: true, now } })
        .then([{ type: 'InvoiceDraftUpdated', data: { invoice_id: id, description: 'June' } }]));
    it('replaces days until due with a due date', () =>
      spec
        .given([created, { type: 'InvoiceDraftUpdated', data: { invoice_id: id, days_until_due: 10 } }])
        .when({ type: 'UpdateInvoiceDraft', data: { invoice_id: id, due_at: '2026-06-01T00:00:00.000Z', now } })
        .then([{ type: 'InvoiceDraftUpdated', data: { invoice_id: id, due_at: '2026-06-01T00:00:00.000Z', days_until_due: null } }]));
    it('adds a line, once', () => {
      const added: InvoiceEvent = { type: 'InvoiceLineAdded', data: { invoice_id: id, line: line('il_c', '1.00') } };
      spec.given([created]).when({ type: 'AddInvoiceLine', data: { invoice_id: id, line: line('il_c', '1.00') } }).then([added]);
      spec.given([created, added]).when({ type: 'AddInvoiceLine', data: { invoice_id: id, line: line('il_c', '1.00') } }).thenNothingHappens();
    });
    it('removes a line it has', () => {
      spec.given([created]).when({ type: 'RemoveInvoiceLine', data: { invoice_id: id, line_id: 'il_a' } }).then([{ type: 'InvoiceLineRemoved', data: { invoice_id: id, line_id: 'il_a' } }]);
      spec.given([created]).when({ type: 'RemoveInvoiceLine', data: { invoice_id: id, line_id: 'il_x' } }).thenFails('invoice.line_not_found');
    });
    it('records recomputed tax', () =>
      spec.given([created]).when({ type: 'RecordInvoiceTax', data: { invoice_id: id, line_ids: ['il_a', 'il_b'], totals: totals() } }).then([{ type: 'InvoiceTaxComputed', data: { invoice_id: id, totals: totals() } }]));
    it('refuses totals of other lines (the draft changed meanwhile)', () =>
      spec.given([created]).when({ type: 'RecordInvoiceTax', data: { invoice_id: id, line_ids: ['il_a'], totals: totals() } }).thenFails('request.concurrent_update'));
    it('does not exist before it is created', () => spec.given([]).when(void_).thenFails('invoice.not_found'));
  });

  describe('FinalizeInvoice', () => {
    it('opens the draft with its number, due at once when auto-charged, awaiting payment while no method is known', () => spec.given([created]).when(finalize()).then([awaiting()]));
    it('starts the automatic charge in the same append, with the method it is given when the invoice names none', () =>
      spec
        .given([created])
        .when({ ...finalize(), data: { ...finalize().data, payment_method_id: 'pm_1' } })
        .then([
          finalized,
          { type: 'InvoicePaymentStarted', data: { invoice_id: id, payment_id: automaticPaymentId(id), customer_id: 'cus_1', subscription_id: null, payment_method_id: 'pm_1', amount: '178.50', currency: 'EUR', reason: 'automatic', dunning: null } },
        ]));
    it('starts no charge for an invoice sent for payment', () =>
      spec
        .given([created, { type: 'InvoiceDraftUpdated', data: { invoice_id: id, auto_charge: false } }])
        .when({ ...finalize(), data: { ...finalize().data, payment_method_id: 'pm_1' } })
        .then([awaiting('2026-05-31T10:00:00.000Z')]));
    it('is due in 30 days when sent for payment', () =>
      spec
        .given([created, { type: 'InvoiceDraftUpdated', data: { invoice_id: id, auto_charge: false } }])
        .when(finalize())
        .then([awaiting('2026-05-31T10:00:00.000Z')]));
    it('pays an invoice with nothing to pay', () =>
      spec.given([created]).when(finalize('ABC-000001', '0')).then([{ ...finalized, data: { ...finalized.data, totals: totals('0') } }, paid]));
    it('does nothing when finalised with the same number (the numbering process)', () => spec.given([created, finalized]).when(finalize()).thenNothingHappens());
    it('refuses a second finalisation', () => spec.given([created, finalized]).when(finalize('ABC-000002')).thenFails('invoice.not_draft'));
    it('refuses a fixed due date that passed', () =>
      spec.given([created, { type: 'InvoiceDraftUpdated', data: { invoice_id: id, due_at: '2026-04-01T00:00:00.000Z' } }]).when(finalize()).thenFails('invoice.due_at_passed'));
    it('refuses totals that do not add up', () => {
      const wrong = finalize();
      expect(() => invoiceDecider.decide({ ...wrong, data: { ...wrong.data, totals: { ...totals(), total: '178.51' } } }, [created].reduce(invoiceDecider.evolve, invoiceDecider.initialState()))).toThrow(/subtotal/);
    });
  });

  describe('once open', () => {
    it.each([
      ['a change', { type: 'UpdateInvoiceDraft' as const, data: { invoice_id: id, description: 'x', now } }],
      ['a due date', { type: 'UpdateInvoiceDraft' as const, data: { invoice_id: id, due_at: '2027-01-01T00:00:00.000Z', now } }],
      ['a new line', { type: 'AddInvoiceLine' as const, data: { invoice_id: id, line: line('il_c', '1.00') } }],
      ['removing a line', { type: 'RemoveInvoiceLine' as const, data: { invoice_id: id, line_id: 'il_a' } }],
      ['recomputed tax', { type: 'RecordInvoiceTax' as const, data: { invoice_id: id, line_ids: ['il_a', 'il_b'], totals: totals() } }],
    ])('refuses %s', (_name, command) => spec.given([created, finalized]).when(command).thenFails('invoice.not_draft'));

    it('still takes metadata', () =>
      spec
        .given([created, finalized])
        .when({ type: 'UpdateInvoiceDraft', data: { invoice_id: id, metadata: { ref: '1' }, now } })
        .then([{ type: 'InvoiceDraftUpdated', data: { invoice_id: id, metadata: { ref: '1' } } }]));
  });

  describe('payments', () => {
    it('part-pays, then pays, each payment that of its attempt', () => {
      spec.given([created, finalized, started('pay_1', '100.00')]).when(payment('pay_1', '100.00')).then([applied('pay_1', '100')]);
      spec.given([created, finalized, started('pay_1', '100.00'), applied('pay_1', '100'), started('pay_2', '78.50')]).when(payment('pay_2', '78.50')).then([applied('pay_2', '78.5'), paid]);
    });
    it('counts a payment id once', () => spec.given([created, finalized, started('pay_1', '100.00'), applied('pay_1', '100')]).when(payment('pay_1', '100.00')).thenNothingHappens());
    it('refuses an amount finer than the currency', () => spec.given([created, finalized, started('pay_1')]).when(payment('pay_1', '1.001')).thenFails('invoice.invalid_payment_amount'));

    describe('a succeeded payment the invoice cannot take is recorded as not applied (it is returned), never refused', () => {
      it('when the invoice was voided or written off meanwhile (by a policy), or is paid', () => {
        spec.given([created, finalized, started('pay_1'), voided]).when(payment('pay_1', '178.50')).then([notApplied('pay_1', '178.5', 'invoice_void')]);
        spec.given([created, finalized, started('pay_1'), uncollectible]).when(payment('pay_1', '178.50')).then([notApplied('pay_1', '178.5', 'invoice_uncollectible')]);
        spec.given([created, finalized, started('pay_0'), applied('pay_0', '178.5'), paid]).when(payment('pay_1', '1.00')).then([notApplied('pay_1', '1', 'invoice_paid')]);
      });
      it('when its attempt had ended (canceled before the provider’s success arrived)', () =>
        spec.given([created, finalized, started('pay_1'), canceled('pay_1')]).when(payment('pay_1', '178.50')).then([notApplied('pay_1', '178.5', 'attempt_closed')]));
      it('when it is more than is due', () =>
        spec.given([created, finalized, started('pay_1', '100.00'), applied('pay_1', '100'), started('pay_2', '78.51')]).when(payment('pay_2', '78.51')).then([notApplied('pay_2', '78.51', 'exceeds_amount_due')]));
      it('once, and the attempt is over: the next may start', () => {
        const returned = [created, finalized, started('pay_1', '100.00'), notApplied('pay_1', '200', 'exceeds_amount_due')];
        spec.given(returned).when(payment('pay_1', '200.00')).thenNothingHappens();
        spec.given(returned).when({ type: 'StartInvoicePayment', data: { invoice_id: id, payment_id: 'pay_2', payment_method_id: 'pm_1', reason: 'manual' } }).then([started('pay_2')]);
      });
    });
  });

  describe('while a payment attempt awaits its outcome', () => {
    const inFlight = [created, finalized, started('pay_1', '50.00')];
    it('refuses to void or write off the invoice, as a second payment is refused', () => {
      spec.given(inFlight).when(void_).thenFails('invoice.payment_in_progress');
      spec.given(inFlight).when(mark).thenFails('invoice.payment_in_progress');
    });
    it('voids or writes it off by policy: the payment flow cancels the payment, or returns it', () => {
      spec.given(inFlight).when({ ...void_, data: { ...void_.data, cancel_open_payment: true } }).then([voided]);
      spec.given(inFlight).when({ ...mark, data: { ...mark.data, cancel_open_payment: true } }).then([uncollectible]);
    });
    it('takes a credit note that leaves at least the payment’s amount due, and refuses one that leaves less', () => {
      const lines = [
        { line_id: 'il_a', amount: '85.67', tax_amount: '13.68' },
        { line_id: 'il_b', amount: '42.83', tax_amount: '6.84' },
      ];
      const note: InvoiceEvent = {
        type: 'CreditNoteDecided',
        data: { invoice_id: id, credit_note_id: 'cn_1', amount: '128.5', reason: 'duplicate', memo: null, lines, pre_payment: true, created_at: now, ...NO_OUTCOME },
      };
      spec.given(inFlight).when(credit({ amount: '128.50' })).then([note]);
      spec.given(inFlight).when(credit({ amount: '128.51' })).thenFails('invoice.payment_in_progress');
      spec.given(inFlight).when(credit({ lines: [{ line_id: 'il_a', amount: '119.00' }, { line_id: 'il_b', amount: '10.00' }] })).thenFails('invoice.payment_in_progress');
    });
    it('voids once the attempt has ended', () => spec.given([...inFlight, canceled('pay_1')]).when(void_).then([voided]));
  });

  describe('void and uncollectible', () => {
    it('voids an open invoice, once', () => {
      spec.given([created, finalized]).when(void_).then([voided]);
      spec.given([created, finalized, voided]).when(void_).thenNothingHappens();
    });
    it('refuses to void a draft, a partly paid, a paid or an uncollectible invoice', () => {
      spec.given([created]).when(void_).thenFails('invoice.not_open');
      spec.given([created, finalized, applied('pay_1', '1')]).when(void_).thenFails('invoice.has_payments');
      spec.given([created, finalized, applied('pay_1', '178.5'), paid]).when(void_).thenFails('invoice.already_paid');
      spec.given([created, finalized, uncollectible]).when(void_).thenFails('invoice.uncollectible');
    });
    it('writes off an open or partly paid invoice, once', () => {
      spec.given([created, finalized]).when(mark).then([uncollectible]);
      spec.given([created, finalized, applied('pay_1', '1')]).when(mark).then([uncollectible]);
      spec.given([created, finalized, uncollectible]).when(mark).thenNothingHappens();
    });
    it('refuses to write off a draft, a paid or a void invoice', () => {
      spec.given([created]).when(mark).thenFails('invoice.not_open');
      spec.given([created, finalized, applied('pay_1', '178.5'), paid]).when(mark).thenFails('invoice.already_paid');
      spec.given([created, finalized, voided]).when(mark).thenFails('invoice.voided');
    });
  });

  describe('IssueCreditNote', () => {
    type Line = { line_id: string; amount: string; tax_amount: string };
    const SPLIT_10: Line[] = [
      { line_id: 'il_a', amount: '6.67', tax_amount: '1.06' },
      { line_id: 'il_b', amount: '3.33', tax_amount: '0.53' },
    ];
    const WHOLE: Line[] = [
      { line_id: 'il_a', amount: '119', tax_amount: '19' },
      { line_id: 'il_b', amount: '59.5', tax_amount: '9.5' },
    ];
    const noteData = (amount: string, lines: Line[], pre_payment = true, n = 1, extra: Partial<CreditNoteDecided['data']> = {}): CreditNoteDecided['data'] => ({
      invoice_id: id,
      credit_note_id: `cn_${n}`,
      amount,
      reason: 'duplicate',
      memo: null,
      lines,
      pre_payment,
      created_at: now,
      ...NO_OUTCOME,
      ...extra,
    });
    const note = (...args: Parameters<typeof noteData>): InvoiceEvent => ({ type: 'CreditNoteDecided', data: noteData(...args) });
    const number = (n = 1, cnNumber = `ABC-CN-00000${n}`) => ({ type: 'NumberCreditNote' as const, data: { invoice_id: id, credit_note_id: `cn_${n}`, number: cnNumber } });
    const issued = (data: CreditNoteDecided['data'], cnNumber: string): InvoiceEvent => ({ type: 'CreditNoteIssued', data: { ...data, number: cnNumber } });
    const toWallet = { outcome: { kind: 'credit_balance', refund_status: null } } as const;
    it('credits an amount before payment, spread over the lines in proportion, with each line’s tax at its own rate', () =>
      spec.given([created, finalized]).when(credit({ amount: '10.00' })).then([note('10', SPLIT_10)]));
    it('decides one id once, and issues it with the number reserved for it, once', () => {
      spec.given([created, finalized, note('10', SPLIT_10)]).when(credit({ amount: '10.00', credit_note_id: 'cn_2' })).then([note('10', SPLIT_10, true, 2)]);
      spec.given([created, finalized, note('10', SPLIT_10)]).when(credit({ amount: '10.00' })).thenNothingHappens();
      spec.given([created, finalized, note('10', SPLIT_10)]).when(number()).then([issued(noteData('10', SPLIT_10), 'ABC-CN-000001')]);
      spec.given([created, finalized, note('10', SPLIT_10), issued(noteData('10', SPLIT_10), 'ABC-CN-000001')]).when(number()).thenNothingHappens();
      spec.given([created, finalized]).when(number()).thenFails('credit_note.not_found');
    });
    it('issues a decided note with its outcome as it is when numbered', () => {
      const refunding = noteData('10', SPLIT_10, false, 1, { outcome: { kind: 'refund', refund_status: 'pending' }, refund_id: 'rfd_1', payment_id: 'pay_1' });
      const attempted: InvoiceEvent = { type: 'CreditNoteRefundUpdated', data: { invoice_id: id, credit_note_id: 'cn_1', refund_status: 'failed' } };
      spec
        .given([created, finalized, applied('pay_1', '178.5'), paid, { type: 'CreditNoteDecided', data: refunding }, attempted])
        .when(number())
        .then([issued({ ...refunding, outcome: { kind: 'refund', refund_status: 'failed' } }, 'ABC-CN-000001')]);
    });
    it('credits lines, up to each line’s total, the tax in each at its rate', () => {
      const b = [{ line_id: 'il_b', amount: '59.5', tax_amount: '9.5' }];
      spec.given([created, finalized]).when(credit({ lines: [{ line_id: 'il_b', amount: '59.50' }] })).then([note('59.5', b)]);
      spec.given([created, finalized, note('59.5', b)]).when(credit({ credit_note_id: 'cn_2', lines: [{ line_id: 'il_b', amount: '0.01' }] })).thenFails('credit_note.exceeds_invoice');
      spec.given([created, finalized]).when(credit({ lines: [{ line_id: 'il_x', amount: '1.00' }] })).thenFails('invoice.line_not_found');
      spec.given([created, finalized]).when(credit({ lines: [{ line_id: 'il_a', amount: '1.00' }, { line_id: 'il_a', amount: '1.00' }] })).thenFails('credit_note.invalid');
    });
    it('spreads an amount over what is left of each line', () => {
      const b = [{ line_id: 'il_b', amount: '59.5', tax_amount: '9.5' }];
      spec
        .given([created, finalized, note('59.5', b)])
        .when(credit({ amount: '10.00', credit_note_id: 'cn_2' }))
        .then([note('10', [{ line_id: 'il_a', amount: '10', tax_amount: '1.6' }], true, 2)]);
    });
    it('pays the invoice when it credits all that is due, once numbered', () => {
      const rest = [
        { line_id: 'il_a', amount: '52.33', tax_amount: '8.36' },
        { line_id: 'il_b', amount: '26.17', tax_amount: '4.18' },
      ];
      spec.given([created, finalized, applied('pay_1', '100')]).when(credit({ amount: '78.50' })).then([note('78.5', rest)]);
      spec.given([created, finalized, applied('pay_1', '100'), note('78.5', rest)]).when(number()).then([issued(noteData('78.5', rest), 'ABC-CN-000001'), paid]);
    });
    it('never credits more than is due before payment, nor more than was paid after', () => {
      spec.given([created, finalized, applied('pay_1', '100')]).when(credit({ amount: '78.51' })).thenFails('credit_note.exceeds_invoice');
      const paidInFull = [created, finalized, applied('pay_1', '178.5'), paid];
      spec.given(paidInFull).when(credit({ amount: '178.50' })).then([note('178.5', WHOLE, false, 1, toWallet)]);
      spec.given([...paidInFull, note('178.5', WHOLE, false, 1, toWallet)]).when(credit({ amount: '0.01', credit_note_id: 'cn_2' })).thenFails('credit_note.exceeds_invoice');
    });
    it('on a paid invoice credits the wallet by default or refunds, never just lowers what is due', () => {
      const paidInFull = [created, finalized, applied('pay_1', '178.5'), paid];
      spec.given(paidInFull).when(credit({ amount: '178.50', outcome: 'none' })).thenFails('credit_note.outcome_required');
      spec
        .given(paidInFull)
        .when(credit({ amount: '178.50', outcome: 'refund', refund_id: 'rfd_1', payment_id: 'pay_1' }))
        .then([note('178.5', WHOLE, false, 1, { outcome: { kind: 'refund', refund_status: 'pending' }, refund_id: 'rfd_1', payment_id: 'pay_1' })]);
    });
    it('refunds the last applied payment, or the one named, when asked on the invoice: the refund takes the note’s id', () => {
      const twice = [created, finalized, applied('pay_1', '100'), applied('pay_2', '78.5'), paid];
      const refunding = (payment_id: string) => ({ outcome: { kind: 'refund', refund_status: 'pending' }, refund_id: 'rfd_1', payment_id }) as const;
      spec.given(twice).when(credit({ amount: '10.00', outcome: 'refund' })).then([note('10', SPLIT_10, false, 1, refunding('pay_2'))]);
      spec.given(twice).when(credit({ amount: '10.00', outcome: 'refund', payment_id: 'pay_1' })).then([note('10', SPLIT_10, false, 1, refunding('pay_1'))]);
      spec.given(twice).when(credit({ amount: '78.51', outcome: 'refund' })).thenFails('credit_note.exceeds_invoice');
      spec.given([...twice, note('10', SPLIT_10, false, 1, refunding('pay_2'))]).when(credit({ credit_note_id: 'cn_2', amount: '68.51', outcome: 'refund' })).thenFails('credit_note.exceeds_invoice');
      spec.given(twice).when(credit({ amount: '1.00', outcome: 'refund', payment_id: 'pay_9' })).thenFails('credit_note.no_payment_to_refund');
      spec.given(twice).when(credit({ amount: '1.00', payment_id: 'pay_1' })).thenFails('credit_note.invalid');
    });
    it('refunds what a partly paid invoice was paid, without lowering what is due', () => {
      const partly = [created, finalized, applied('pay_1', '10')];
      spec
        .given(partly)
        .when(credit({ amount: '10.00', outcome: 'refund', refund_id: 'rfd_1', payment_id: 'pay_1' }))
        .then([note('10', SPLIT_10, false, 1, { outcome: { kind: 'refund', refund_status: 'pending' }, refund_id: 'rfd_1', payment_id: 'pay_1' })]);
      spec.given(partly).when(credit({ amount: '10.01', outcome: 'refund' })).thenFails('credit_note.exceeds_invoice');
    });
    it('takes an amount or lines, exactly one', () => {
      spec.given([created, finalized]).when(credit({})).thenFails('credit_note.invalid');
      spec.given([created, finalized]).when(credit({ amount: '1.00', lines: [{ line_id: 'il_a', amount: '1.00' }] })).thenFails('credit_note.invalid');
      spec.given([created, finalized]).when(credit({ amount: '0' })).thenFails('credit_note.invalid');
    });
    it('refuses drafts, void and uncollectible invoices', () => {
      spec.given([created]).when(credit({ amount: '1.00' })).thenFails('invoice.not_open');
      spec.given([created, finalized, voided]).when(credit({ amount: '1.00' })).thenFails('invoice.voided');
      spec.given([created, finalized, uncollectible]).when(credit({ amount: '1.00' })).thenFails('invoice.uncollectible');
    });
  });

  describe('a credit note’s refund', () => {
    const refunding = [
      created,
      finalized,
      applied('pay_1', '178.5'),
      paid,
      {
        type: 'CreditNoteIssued',
        data: {
          invoice_id: id,
          credit_note_id: 'cn_1',
          number: 'ABC-000001-CN-01',
          amount: '10',
          reason: 'duplicate',
          memo: null,
          lines: [],
          pre_payment: false,
          created_at: now,
          outcome: { kind: 'refund', refund_status: 'pending' },
          refund_id: 'rfd_1',
          payment_id: 'pay_1',
        },
      } satisfies InvoiceEvent,
    ];
    const ref = { invoice_id: id, credit_note_id: 'cn_1' };
    const record = (refund_status: 'succeeded' | 'failed', exhausted = false) => ({ type: 'RecordCreditNoteRefund' as const, data: { ...ref, refund_status, exhausted } });
    const resolve = (resolution: 'refunded_out_of_band' | 'credited_to_wallet') => ({ type: 'ResolveCreditNote' as const, data: { ...ref, resolution, now } });
    const updated = (refund_status: 'succeeded' | 'failed'): InvoiceEvent => ({ type: 'CreditNoteRefundUpdated', data: { ...ref, refund_status } });
    const failed: InvoiceEvent = { type: 'CreditNoteRefundFailed', data: { ...ref, refund_id: 'rfd_1' } };

    it('records a failed attempt once, and the last one as pending_manual', () => {
      spec.given(refunding).when(record('failed')).then([updated('failed')]);
      spec.given([...refunding, updated('failed')]).when(record('failed')).thenNothingHappens();
      spec.given([...refunding, updated('failed')]).when(record('failed', true)).then([failed]);
      spec.given(refunding).when(record('succeeded')).then([updated('succeeded')]);
    });
    it('is resolved by an operator only once pending_manual', () => {
      spec.given(refunding).when(resolve('credited_to_wallet')).thenFails('credit_note.not_pending_manual');
      const manual = [...refunding, updated('failed'), failed];
      spec.given(manual).when(resolve('credited_to_wallet')).then([{ type: 'CreditNoteResolved', data: { ...ref, resolution: 'credited_to_wallet', resolved_at: now } }]);
      spec.given([...manual, { type: 'CreditNoteResolved', data: { ...ref, resolution: 'credited_to_wallet', resolved_at: now } }]).when(resolve('credited_to_wallet')).thenNothingHappens();
      spec.given(manual).when({ ...resolve('credited_to_wallet'), data: { ...ref, credit_note_id: 'cn_9', resolution: 'credited_to_wallet', now } }).thenFails('credit_note.not_found');
    });
  });
});

describe('an invoice issued in one append', () => {
  const creation = { ...create.data, subscription_id: 'sub_1', billing_reason: 'subscription_cycle' as const, payment_method_id: 'pm_sub', dunning: DEFAULT_DUNNING };
  const issue: IssueInvoice = { type: 'IssueInvoice', data: { creation, number: 'ABC-000001', line_ids: ['il_a', 'il_b'], totals: totals() } };
  const { now: _at, ...issuedData } = creation;
  const issuedCreated: InvoiceEvent = { type: 'InvoiceCreated', data: issuedData };
  const charge: InvoiceEvent = {
    type: 'InvoicePaymentStarted',
    data: { invoice_id: id, payment_id: automaticPaymentId(id), customer_id: 'cus_1', subscription_id: 'sub_1', payment_method_id: 'pm_sub', amount: '178.50', currency: 'EUR', reason: 'automatic', dunning: DEFAULT_DUNNING },
  };

  it('is created, finalised and its automatic charge started, carrying its method and dunning terms', () => spec.given([]).when(issue).then([issuedCreated, finalized, charge]));
  it('starts no charge without a method', () =>
    spec
      .given([])
      .when({ ...issue, data: { ...issue.data, creation: { ...creation, payment_method_id: null } } })
      .then([{ ...issuedCreated, data: { ...issuedData, payment_method_id: null } }, awaiting()]));
  it('changes nothing when issued again with its number (the numbering reaction after the issuer)', () => spec.given([issuedCreated, finalized, charge]).when(issue).thenNothingHappens());
  it('finalises a draft created before invoices were issued in one append', () => spec.given([issuedCreated]).when(issue).then([finalized, charge]));
  it('refuses another number', () => spec.given([issuedCreated, finalized]).when({ ...issue, data: { ...issue.data, number: 'ABC-000002' } }).thenFails('invoice.not_draft'));
  it('checks its creation as a draft’s', () => spec.given([]).when({ ...issue, data: { ...issue.data, creation: { ...creation, currency: 'EURO' } } }).thenFails('money.unknown_currency'));

  it('retries with the method of the last automatic charge or retry, not one named by hand', () => {
    const retry: InvoiceEvent = { ...charge, data: { ...charge.data, payment_id: 'pay_retry', payment_method_id: 'pm_new', reason: 'retry' } };
    const failed = (payment_id: string): InvoiceEvent => ({ type: 'InvoicePaymentFailed', data: { invoice_id: id, ...payer, payment_id, subscription_id: 'sub_1', last_error: { code: 'card_declined', decline_code: null, provider_message: 'no', user_message: 'no', is_retriable: true, retriable_after: null } } });
    const stateAfter = (events: InvoiceEvent[]) => events.reduce(invoiceDecider.evolve, invoiceDecider.initialState());
    expect(stateAfter([issuedCreated, finalized, charge, failed(automaticPaymentId(id)), retry])).toMatchObject({ paymentMethodId: 'pm_new' });
    expect(stateAfter([issuedCreated, finalized, charge, failed(automaticPaymentId(id)), { ...retry, data: { ...retry.data, reason: 'manual' } }])).toMatchObject({ paymentMethodId: 'pm_sub' });
  });

  describe('when dunning used up its retries', () => {
    const exhaust = (final_action: 'cancel_subscription' | 'mark_uncollectible') => ({ type: 'ExhaustInvoiceRetries' as const, data: { invoice_id: id, final_action } });
    const exhausted = (final_action: 'cancel_subscription' | 'mark_uncollectible'): InvoiceEvent => ({ type: 'InvoiceRetriesExhausted', data: { invoice_id: id, subscription_id: 'sub_1', final_action } });

    it('records the final action for the subscription', () => spec.given([issuedCreated, finalized]).when(exhaust('cancel_subscription')).then([exhausted('cancel_subscription')]));
    it('writes the invoice off by policy, its attempt still open', () =>
      spec.given([issuedCreated, finalized, charge]).when(exhaust('mark_uncollectible')).then([exhausted('mark_uncollectible'), uncollectible]));
    it('once', () => spec.given([issuedCreated, finalized, exhausted('cancel_subscription')]).when(exhaust('cancel_subscription')).thenNothingHappens());
    it('does nothing to an invoice settled meanwhile', () =>
      spec.given([issuedCreated, finalized, { type: 'InvoiceVoided', data: { invoice_id: id } }]).when(exhaust('cancel_subscription')).thenNothingHappens());
  });
});

describe('invoice number sequence', () => {
  const sequence = DeciderSpecification.for(invoiceNumberSequenceDecider);
  const reserve = (...invoiceIds: string[]) => ({ type: 'ReserveInvoiceNumbers' as const, data: { invoices: invoiceIds.map((invoice_id) => ({ invoice_id })), prefix: 'ABC' } });
  const reserved = (invoice_id: string, n: number) => ({ type: 'InvoiceNumberReserved' as const, data: { invoice_id, sequence: n, number: `ABC-${String(n).padStart(6, '0')}` } });

  it('takes the next number', () => sequence.given([reserved('inv_a', 1)]).when(reserve('inv_b')).then([reserved('inv_b', 2)]));
  it('carries the invoice a number is reserved for, so a crash before its append cannot leave the number unused', () => {
    const issue = { command: { creation: { ...create.data }, line_ids: ['il_a', 'il_b'], totals: totals() }, clock_id: 'clock_1' };
    sequence
      .given([reserved('inv_a', 1)])
      .when({ type: 'ReserveInvoiceNumbers', data: { invoices: [{ invoice_id: 'inv_b', issue }], prefix: 'ABC' } })
      .then([{ type: 'InvoiceNumberReserved', data: { ...reserved('inv_b', 2).data, issue } }]);
  });
  it('gives a retried invoice the number it reserved', () => sequence.given([reserved('inv_a', 1), reserved('inv_b', 2)]).when(reserve('inv_a')).thenNothingHappens());
  it('reserves for several invoices at once, in order, skipping those reserved before and repeated ones', () =>
    sequence.given([reserved('inv_a', 1)]).when(reserve('inv_b', 'inv_a', 'inv_c', 'inv_b')).then([reserved('inv_b', 2), reserved('inv_c', 3)]));
  it('keeps a bounded state', () => {
    const events = Array.from({ length: 1000 }, (_, i) => reserved(`inv_${i}`, i + 1));
    const state = events.reduce(invoiceNumberSequenceDecider.evolve, invoiceNumberSequenceDecider.initialState());
    expect(state.last).toBe(1000);
    expect(state.recent.length).toBeLessThanOrEqual(256);
  });
});

describe('invoice payment attempts', () => {
  const start = (payment_id: string) => ({ type: 'StartInvoicePayment' as const, data: { invoice_id: id, payment_id, payment_method_id: 'pm_1', reason: 'manual' as const } });
  const error = { code: 'card_declined', decline_code: 'generic_decline', provider_message: 'declined', user_message: 'declined', is_retriable: false, retriable_after: null };
  const close = (payment_id: string, outcome: 'failed' | 'canceled') => ({
    type: 'CloseInvoicePayment' as const,
    data: { invoice_id: id, payment_id, outcome, last_error: outcome === 'failed' ? error : null },
  });

  it('starts an attempt for what is due, in the currency’s minor units', () => spec.given([created, finalized]).when(start('pay_1')).then([started('pay_1')]));

  it('starts the same attempt once', () => spec.given([created, finalized, started('pay_1')]).when(start('pay_1')).thenNothingHappens());

  it('refuses a second attempt while the first is open, so racing requests charge once', () =>
    spec.given([created, finalized, started('pay_1')]).when(start('pay_2')).thenFails('invoice.payment_in_progress'));

  it('starts the next attempt after a failure, and records the failure once', () => {
    const failed: InvoiceEvent = { type: 'InvoicePaymentFailed', data: { invoice_id: id, ...payer, payment_id: 'pay_1', subscription_id: null, last_error: error, awaits_payment: true } };
    spec.given([created, finalized, started('pay_1')]).when(close('pay_1', 'failed')).then([failed]);
    spec.given([created, finalized, started('pay_1'), failed]).when(close('pay_1', 'failed')).thenNothingHappens();
    spec.given([created, finalized, started('pay_1'), failed]).when(start('pay_2')).then([started('pay_2')]);
  });

  it('closes a canceled attempt without a failure', () => spec.given([created, finalized, started('pay_1')]).when(close('pay_1', 'canceled')).then([canceled('pay_1')]));

  it('says the invoice awaits payment after an attempt ends only while something is left to pay', () => {
    spec.given([created, finalized, started('pay_1'), voided]).when(close('pay_1', 'canceled')).then([canceled('pay_1', false)]);
    spec
      .given([created, finalized, started('pay_1'), uncollectible])
      .when(close('pay_1', 'failed'))
      .then([{ type: 'InvoicePaymentFailed', data: { invoice_id: id, ...payer, payment_id: 'pay_1', subscription_id: null, last_error: error, awaits_payment: false } }]);
  });

  it('ends the attempt when its payment is applied, and starts the next for what is left', () =>
    spec.given([created, finalized, started('pay_1', '78.50'), applied('pay_1', '78.50')]).when(start('pay_2')).then([started('pay_2', '100.00')]));

  it('starts an attempt for a part of what is due, and refuses one for more', () => {
    spec.given([created, finalized]).when({ ...start('pay_1'), data: { ...start('pay_1').data, amount: '50.00' } }).then([started('pay_1', '50.00')]);
    spec.given([created, finalized]).when({ ...start('pay_1'), data: { ...start('pay_1').data, amount: '178.51' } }).thenFails('invoice.payment_exceeds_amount_due');
    spec.given([created, finalized]).when({ ...start('pay_1'), data: { ...start('pay_1').data, amount: '0.001' } }).thenFails('invoice.invalid_payment_amount');
  });

  it('carries the payer’s return URL to the payment', () => {
    const returnUrl = 'https://shop.example/paid?order=7';
    spec.given([created, finalized]).when({ ...start('pay_1'), data: { ...start('pay_1').data, return_url: returnUrl } }).then([{ ...started('pay_1'), data: { ...started('pay_1').data, return_url: returnUrl } } as InvoiceEvent]);
  });

  it('refuses drafts and paid invoices: nothing is payable', () => {
    spec.given([created]).when(start('pay_1')).thenFails('invoice.not_payable');
    spec.given([created, finalized, applied('pay_0', '178.50'), paid]).when(start('pay_1')).thenFails('invoice.not_payable');
  });
});

describe('settlement from the customer’s wallet', () => {
  const walletId = 'wal_1';
  const walletPayment = walletSettlementPaymentId(id, 'finalization');
  const withWallet = (payment_method_id?: string, funded = true): FinalizeInvoice => ({ ...finalize(), data: { ...finalize().data, wallet: { id: walletId, funded }, ...(payment_method_id && { payment_method_id }) } });
  const finalizedWithWallet: InvoiceFinalized = { ...finalized, data: { ...finalized.data, wallet_id: walletId, payment_method_id: 'pm_1' } };
  const walletAttempt = (payment_id: string, amount: string, reason: 'automatic' | 'manual' = 'automatic'): InvoiceEvent => ({
    type: 'InvoicePaymentStarted',
    data: { invoice_id: id, payment_id, customer_id: 'cus_1', subscription_id: null, payment_method_id: walletId, amount, currency: 'EUR', reason, dunning: null, source: 'wallet' },
  });
  const cardAttempt = (amount: string): InvoiceEvent => ({
    type: 'InvoicePaymentStarted',
    data: { invoice_id: id, payment_id: automaticPaymentId(id), customer_id: 'cus_1', subscription_id: null, payment_method_id: 'pm_1', amount, currency: 'EUR', reason: 'automatic', dunning: null },
  });
  const settling = [created, finalizedWithWallet, walletAttempt(walletPayment, '178.50')];
  const declined = { code: 'card_declined', decline_code: 'generic_decline', provider_message: 'declined', user_message: 'declined', is_retriable: false, retriable_after: null };
  const failed = (payment_id: string): InvoiceEvent => ({ type: 'InvoicePaymentFailed', data: { invoice_id: id, ...payer, payment_id, subscription_id: null, last_error: declined, awaits_payment: true } });

  it('settles from the wallet first at finalisation, before any charge of the method', () =>
    spec.given([created]).when(withWallet('pm_1')).then([finalizedWithWallet, walletAttempt(walletPayment, '178.50')]));

  it('names an empty wallet, and charges the method at once', () =>
    spec.given([created]).when(withWallet('pm_1', false)).then([finalizedWithWallet, cardAttempt('178.50')]));

  it('pays a negative or zero total at once, naming the wallet', () =>
    spec
      .given([created])
      .when({ ...withWallet(), data: { ...withWallet().data, totals: totals('0') } })
      .then([{ ...finalized, data: { ...finalized.data, totals: totals('0'), wallet_id: walletId } }, paid]));

  it('is paid when the wallet covers it all: no charge of the method', () =>
    spec.given(settling).when(payment(walletPayment, '178.50')).then([applied(walletPayment, '178.5'), paid]));

  it('charges the method for what the wallet left, in the same append', () =>
    spec.given(settling).when(payment(walletPayment, '100.00')).then([applied(walletPayment, '100'), cardAttempt('78.50')]));

  it('charges the method for all of it when the wallet was empty', () =>
    spec
      .given(settling)
      .when({ type: 'CloseInvoicePayment', data: { invoice_id: id, payment_id: walletPayment, outcome: 'canceled', last_error: null } })
      .then([canceled(walletPayment, false), cardAttempt('178.50')]));

  it('charges nothing after a later settlement (asked by hand, or a credit of the wallet), nor for an invoice sent for payment', () => {
    const manual = [created, finalized, walletAttempt('pay_w', '178.50', 'manual')];
    spec.given(manual).when(payment('pay_w', '100.00')).then([applied('pay_w', '100')]);
    const later = [created, finalizedWithWallet, walletAttempt(walletPayment, '178.50'), canceled(walletPayment), cardAttempt('178.50'), failed(automaticPaymentId(id)), walletAttempt('pay_w', '178.50')];
    spec.given(later).when(payment('pay_w', '100.00')).then([applied('pay_w', '100')]);
    const sent = [created, { type: 'InvoiceDraftUpdated', data: { invoice_id: id, auto_charge: false } } as InvoiceEvent, finalizedWithWallet, walletAttempt(walletPayment, '178.50')];
    spec.given(sent).when(payment(walletPayment, '100.00')).then([applied(walletPayment, '100')]);
  });

  it('voids an invoice only the wallet paid a part of, returning that part to the wallet', () => {
    spec.given([...settling, applied(walletPayment, '100')]).when(void_).then([{ type: 'InvoiceVoided', data: { invoice_id: id, ...payer, wallet_id: walletId, wallet_returned: '100' } }]);
    spec.given([created, finalizedWithWallet]).when(void_).then([{ type: 'InvoiceVoided', data: { invoice_id: id, ...payer } }]);
  });

  it('still refuses to void an invoice a method paid a part of', () =>
    spec.given([...settling, applied(walletPayment, '100'), cardAttempt('78.50'), applied(automaticPaymentId(id), '10')]).when(void_).thenFails('invoice.has_payments'));
});
