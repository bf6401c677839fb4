import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { paymentDecider, type CreatePayment, type ProviderAnswer } from './payment.decider';
import type { PaymentEvent } from './payment.events';

const spec = DeciderSpecification.for(paymentDecider);
const payment_id = 'pay_01JPAYMENT000000000000000';
const AT = '2026-05-01T10:00:00.000Z';

const createdData = {
  payment_id,
  invoice_id: 'inv_1',
  customer_id: 'cus_1',
  subscription_id: null,
  payment_method_id: 'pm_1',
  provider: 'sandbox',
  provider_ref: 'sbx_pm_1',
  amount: '49.00',
  currency: 'EUR',
  reason: 'manual' as const,
  dunning: null,
};
const created: PaymentEvent = { type: 'PaymentCreated', data: createdData };
const answer = (given: ProviderAnswer) => ({ type: 'RecordProviderAnswer' as const, data: { payment_id, answer: given } });
const succeededAnswer: ProviderAnswer = { status: 'succeeded', provider_id: 'sbx_py_1', captured_at: AT };
const create: CreatePayment = { type: 'CreatePayment', data: { ...createdData, answer: succeededAnswer } };
const succeeded: PaymentEvent[] = [
  { type: 'PaymentSucceeded', data: { payment_id, provider_id: 'sbx_py_1', captured_at: AT } },
  { type: 'PaymentSettled', data: { payment_id, amount_settled: '49.00', settlement_currency: 'EUR', fx_rate: null, settled_at: AT } },
];
const error = { code: 'card_declined', decline_code: 'insufficient_funds', provider_message: 'no', user_message: 'no', is_retriable: true, retriable_after: '2026-05-02T10:00:00.000Z' };
const action = { type: 'redirect_to_url' as const, url: 'https://tally.example/payment-actions/pay_1?signature=x' };
const requiresAction: PaymentEvent = { type: 'PaymentRequiresAction', data: { payment_id, provider_id: 'sbx_py_1', next_action: action } };
const processing: PaymentEvent = { type: 'PaymentProcessing', data: { payment_id, provider_id: 'sbx_py_1' } };

describe('payment decider', () => {
  it('is created with the outcome of its charge, in one append, once', () => {
    spec.given([]).when(create).then([created, ...succeeded]);
    spec.given([created, ...succeeded]).when(create).thenNothingHappens();
  });

  it('records the charge of a payment created before it was charged in the same append', () => spec.given([created]).when(create).then(succeeded));

  it('is created waiting for the customer’s action when the charge asks for one', () =>
    spec
      .given([])
      .when({ ...create, data: { ...create.data, answer: { status: 'requires_action', provider_id: 'sbx_py_1', next_action: action } } })
      .then([created, requiresAction]));

  it('keeps the return URL its payer gave', () => {
    const withReturn: CreatePayment = { ...create, data: { ...create.data, return_url: 'https://shop.example/paid' } };
    spec.given([]).when(withReturn).then([{ type: 'PaymentCreated', data: { ...createdData, return_url: 'https://shop.example/paid' } }, ...succeeded]);
  });

  it('succeeds and settles when the provider captured it', () => spec.given([created]).when(answer(succeededAnswer)).then(succeeded));

  it('is created canceled when nothing was taken (a settlement from an empty wallet), and stays so', () => {
    spec.given([]).when({ ...create, data: { ...create.data, answer: { status: 'canceled' } } }).then([created, { type: 'PaymentCanceled', data: { payment_id } }]);
    spec.given([created, { type: 'PaymentCanceled', data: { payment_id } }]).when(answer({ status: 'canceled' })).thenNothingHappens();
  });

  it('fails with the provider’s error and its retry hint', () =>
      spec
      .given([created])
      .when(answer({ status: 'failed', provider_id: 'sbx_py_1', last_error: error }))
      .then([{ type: 'PaymentFailed', data: { payment_id, provider_id: 'sbx_py_1', last_error: error, invoice_id: 'inv_1', subscription_id: null, dunning: null } }]));

  it('waits for the customer’s action, then completes it and goes on to the outcome', () => {
    spec.given([created]).when(answer({ status: 'requires_action', provider_id: 'sbx_py_1', next_action: action })).then([requiresAction]);
    spec.given([created, requiresAction]).when(answer(succeededAnswer)).then([{ type: 'PaymentActionCompleted', data: { payment_id } }, ...succeeded]);
  });

  it('processes a bank debit until it settles', () => {
    spec.given([created]).when(answer({ status: 'processing', provider_id: 'sbx_py_1' })).then([processing]);
    spec.given([created, processing]).when(answer(succeededAnswer)).then(succeeded);
  });

  it('ignores an answer it already recorded or one that comes after the end (a redelivered charge)', () => {
    spec.given([created, ...succeeded]).when(answer(succeededAnswer)).thenNothingHappens();
    spec.given([created, ...succeeded]).when(answer({ status: 'failed', provider_id: 'sbx_py_1', last_error: error })).thenNothingHappens();
    spec.given([created, requiresAction]).when(answer({ status: 'requires_action', provider_id: 'sbx_py_1', next_action: action })).thenNothingHappens();
  });

  it('cancels a pending payment or one waiting for its action, once', () => {
    const canceled: PaymentEvent = { type: 'PaymentCanceled', data: { payment_id } };
    spec.given([created]).when({ type: 'CancelPayment', data: { payment_id } }).then([canceled]);
    spec.given([created, requiresAction]).when({ type: 'CancelPayment', data: { payment_id } }).then([canceled]);
    spec.given([created, canceled]).when({ type: 'CancelPayment', data: { payment_id } }).thenNothingHappens();
  });

  it('refuses to cancel a payment that succeeded or is processing', () => {
    spec.given([created, ...succeeded]).when({ type: 'CancelPayment', data: { payment_id } }).thenFails('payment.not_cancelable');
    spec.given([created, processing]).when({ type: 'CancelPayment', data: { payment_id } }).thenFails('payment.not_cancelable');
  });

  it('refuses a payment that does not exist', () => spec.given([]).when(answer(succeededAnswer)).thenFails('payment.not_found'));

  it('charges back a succeeded payment once, and decides its dispute once', () => {
    const open = { type: 'OpenDispute' as const, data: { payment_id, reason: 'fraudulent', at: AT } };
    const chargedBack: PaymentEvent = { type: 'PaymentChargedBack', data: { payment_id, amount: '49.00', reason: 'fraudulent', opened_at: AT } };
    const decide = (outcome: 'won' | 'lost') => ({ type: 'DecideDispute' as const, data: { payment_id, outcome, at: AT } });
    spec.given([created, ...succeeded]).when(open).then([chargedBack]);
    spec.given([created, ...succeeded, chargedBack]).when(open).thenFails('payment.already_disputed');
    spec.given([created]).when(open).thenFails('payment.not_disputable');
    spec.given([created, ...succeeded, chargedBack]).when(decide('won')).then([{ type: 'PaymentDisputeWon', data: { payment_id, decided_at: AT } }]);
    spec.given([created, ...succeeded, chargedBack]).when(decide('lost')).then([{ type: 'PaymentDisputeLost', data: { payment_id, decided_at: AT } }]);
    spec.given([created, ...succeeded, chargedBack, { type: 'PaymentDisputeLost', data: { payment_id, decided_at: AT } }]).when(decide('lost')).thenNothingHappens();
    spec.given([created, ...succeeded]).when(decide('won')).thenFails('payment.no_open_dispute');
  });

  it('records a success the provider reports after the payment was canceled here: the cancel lost the race, the money was taken', () => {
    const canceled: PaymentEvent = { type: 'PaymentCanceled', data: { payment_id } };
    spec.given([created, requiresAction, canceled]).when(answer(succeededAnswer)).then(succeeded);
    spec.given([created, canceled]).when(answer({ status: 'failed', provider_id: 'sbx_py_1', last_error: error })).thenNothingHappens();
    spec.given([created, canceled]).when(answer({ status: 'requires_action', provider_id: 'sbx_py_1', next_action: action })).thenNothingHappens();
  });

  describe('refunds', () => {
    const refund = { type: 'RecordRefund' as const, data: { payment_id, refund_id: 're_1', provider_refund_id: 'sbx_re_1', reason: 'invoice_not_payable' as const, refunded_at: AT } };
    const refunded: PaymentEvent = { type: 'PaymentRefunded', data: { ...refund.data, amount: '49.00' } };

    it('refunds a succeeded payment in full, once', () => {
      spec.given([created, ...succeeded]).when(refund).then([refunded]);
      spec.given([created, ...succeeded, refunded]).when(refund).thenNothingHappens();
    });

    it('refuses a payment that holds no money of the customer: not succeeded, or charged back', () => {
      spec.given([created]).when(refund).thenFails('payment.not_refundable');
      spec.given([created, requiresAction]).when(refund).thenFails('payment.not_refundable');
      spec.given([created, ...succeeded, { type: 'PaymentChargedBack', data: { payment_id, amount: '49.00', reason: 'fraudulent', opened_at: AT } }]).when(refund).thenFails('payment.not_refundable');
    });

    it('cannot be disputed once refunded', () =>
      spec.given([created, ...succeeded, refunded]).when({ type: 'OpenDispute', data: { payment_id, reason: 'fraudulent', at: AT } }).thenFails('payment.not_disputable'));
  });

  it('is charged back at once when the provider reports the dispute with the charge', () =>
    spec
      .given([created])
      .when(answer({ ...succeededAnswer, dispute: { reason: 'fraudulent' } }))
      .then([...succeeded, { type: 'PaymentChargedBack', data: { payment_id, amount: '49.00', reason: 'fraudulent', opened_at: AT } }]));
});

describe('ReserveRefund', () => {
  const paid = [created, ...succeeded];
  const reserve = (refund_id: string, amount: string | null, now = AT) => ({
    type: 'ReserveRefund' as const,
    data: { payment_id, refund_id, amount, reason: 'duplicate' as const, destination: 'original_method' as const, now },
  });
  const reserved = (refund_id: string, amount: string, refunded: string, reserved_at = AT): PaymentEvent => ({
    type: 'PaymentRefundReserved',
    data: { payment_id, refund_id, amount, refunded, reason: 'duplicate', destination: 'original_method', reserved_at },
  });

  it('sets aside all that is left by default, once per refund', () => {
    spec.given(paid).when(reserve('rfd_1', null)).then([reserved('rfd_1', '49.00', '49')]);
    spec.given([...paid, reserved('rfd_1', '49.00', '49')]).when(reserve('rfd_1', null)).thenNothingHappens();
  });

  it('reserves in parts up to the payment, and no further', () => {
    spec.given(paid).when(reserve('rfd_1', '20.00')).then([reserved('rfd_1', '20.00', '20')]);
    const part = [...paid, reserved('rfd_1', '20.00', '20')];
    spec.given(part).when(reserve('rfd_2', '29.01')).thenFails('refund.amount_exceeds_refundable');
    spec.given(part).when(reserve('rfd_2', null)).then([reserved('rfd_2', '29.00', '49')]);
    spec.given([...part, reserved('rfd_2', '29.00', '49')]).when(reserve('rfd_3', '0.01')).thenFails('refund.payment_not_refundable');
  });

  it('refuses a payment that took no money, and one charged back', () => {
    spec.given([created]).when(reserve('rfd_1', null)).thenFails('refund.payment_not_refundable');
    spec.given([created, { type: 'PaymentFailed', data: { payment_id, provider_id: 'sbx_py_1', last_error: error, invoice_id: 'inv_1', subscription_id: null, dunning: null } }]).when(reserve('rfd_1', null)).thenFails('refund.payment_not_refundable');
    spec.given([...paid, { type: 'PaymentChargedBack', data: { payment_id, amount: '49.00', reason: 'fraudulent', opened_at: AT } }]).when(reserve('rfd_1', null)).thenFails('refund.payment_not_refundable');
  });

  it('refuses an amount that is not positive or finer than the currency', () => {
    spec.given(paid).when(reserve('rfd_1', '0')).thenFails('refund.invalid');
    spec.given(paid).when(reserve('rfd_1', '1.001')).thenFails('refund.invalid');
  });

  it('refunds a card payment for 180 days from its capture, a wallet payment always', () => {
    const day180 = new Date(Date.parse(AT) + 180 * 86_400_000).toISOString();
    const after = new Date(Date.parse(day180) + 1).toISOString();
    spec.given(paid).when(reserve('rfd_1', null, day180)).then([reserved('rfd_1', '49.00', '49', day180)]);
    spec.given(paid).when(reserve('rfd_1', null, after)).thenFails('refund.window_closed');
    const fromWallet: PaymentEvent = { type: 'PaymentCreated', data: { ...createdData, provider: 'wallet' } };
    spec.given([fromWallet, ...succeeded]).when(reserve('rfd_1', null, after)).then([reserved('rfd_1', '49.00', '49', after)]);
  });
});
