import type { CommandRejected, ProcessDecider, ProcessInput, ProcessOutput, TimerFired } from '@tally/kernel';

export type UnappliedPaymentInput =
  /** The invoice could not take the succeeded payment (void, written off, paid, its attempt over, more than due). */
  | ProcessInput<'InvoicePaymentNotApplied', { payment_id: string }>
  /** The bank gave back the money of a charged-back payment: it is the customer's still. */
  | ProcessInput<'PaymentDisputeWon', { payment_id: string }>;

export type RefundUnappliedPayment = { type: 'RefundUnappliedPayment'; data: { payment_id: string } };

export interface UnappliedPaymentState {
  paymentId: string | null;
}

/**
 * One process per payment that its invoice did not apply: it has the payment refunded, and again
 * when a dispute that held the money is won. The refund command fails over to the dispatcher's
 * retries and, when the provider keeps refusing, is parked for an operator: never dropped.
 */
export const unappliedPaymentRefundDecider: ProcessDecider<UnappliedPaymentState, UnappliedPaymentInput | TimerFired | CommandRejected, ProcessOutput<RefundUnappliedPayment>> = {
  initialState: () => ({ paymentId: null }),

  evolve: (state, message) => (message.kind === 'input' && message.input.type === 'InvoicePaymentNotApplied' ? { paymentId: message.input.data.payment_id } : state),

  decide(input, state) {
    const refund = (payment_id: string): ProcessOutput<RefundUnappliedPayment>[] => [{ kind: 'command', command: { type: 'RefundUnappliedPayment', data: { payment_id } } }];
    switch (input.type) {
      case 'InvoicePaymentNotApplied':
        return state.paymentId ? [] : refund(input.data.payment_id);
      case 'PaymentDisputeWon':
        return state.paymentId ? refund(state.paymentId) : [];
      default:
        return [];
    }
  },
};
