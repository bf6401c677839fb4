import { COMMAND_REJECTED, TIMER_FIRED } from '@tally/kernel';
import { ProcessSpecification } from '@tally/kernel/testing/process-spec';
import { unappliedPaymentRefundDecider } from './unapplied-payment-refund.decider';

const spec = ProcessSpecification.for(unappliedPaymentRefundDecider);
const payment_id = 'pay_01JPAYMENT000000000000000';
const notApplied = { id: '01JEVENT000000000000000001', type: 'InvoicePaymentNotApplied' as const, data: { payment_id } };
const disputeWon = { id: '01JEVENT000000000000000002', type: 'PaymentDisputeWon' as const, data: { payment_id } };
const refund = { kind: 'command', command: { type: 'RefundUnappliedPayment', data: { payment_id } } } as const;

describe('unapplied payment refund process', () => {
  it('has the payment its invoice did not apply refunded', () => spec.given([]).when(notApplied).then([refund]));

  it('asks once, however often the invoice’s event arrives', () => spec.given([notApplied]).when({ ...notApplied, id: '01JEVENT000000000000000003' }).thenNothingHappens());

  it('asks again when a dispute that held the money is won', () => spec.given([notApplied]).when(disputeWon).then([refund]));

  it('ignores a won dispute of a payment its invoice applied', () => spec.given([]).when(disputeWon).thenNothingHappens());

  it('stops at a refusal', () =>
    spec
      .given([notApplied])
      .when({ id: 'rejected:cmd_1', type: COMMAND_REJECTED, data: { command_id: 'cmd_1', command_type: 'RefundUnappliedPayment', code: 'payment.not_refundable', message: 'no' } })
      .thenNothingHappens());

  it('asks again for each won dispute', () => spec.given([notApplied, disputeWon]).when({ ...disputeWon, id: '01JEVENT000000000000000004' }).then([refund]));

  it('ignores a timer fired at it: it sets none', () =>
    spec.given([notApplied]).when({ id: 'timer:retry:1', type: TIMER_FIRED, data: { timer_id: 'retry:1' } }).thenNothingHappens());

  it('folds a stream stored before its state was a union as it did then: the payment, then its refund', () => {
    const state = [{ kind: 'input', input: notApplied } as const, refund].reduce(unappliedPaymentRefundDecider.evolve, unappliedPaymentRefundDecider.initialState());
    expect(state).toEqual({ status: 'refund_asked', paymentId: payment_id });
    expect(unappliedPaymentRefundDecider.decide(disputeWon, state)).toEqual([refund]);
  });
});
