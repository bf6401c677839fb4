import { assertNever, COMMAND_REJECTED, TIMER_FIRED, type CommandRejected, type ProcessDecider, type ProcessInput, type ProcessOutput, type TimerFired } from '@tally/kernel';

export type UnappliedPaymentInput =
  /** The invoice could not take the succeeded payment (void, written off, paid, its attempt over, more than due). */
  | ProcessInput<'InvoicePaymentNotApplied', { payment_id: string }>
  /** The bank gave back the money of a charged-back payment: it is the customer's still. */
  | ProcessInput<'PaymentDisputeWon', { payment_id: string }>;

export type RefundUnappliedPayment = { type: 'RefundUnappliedPayment'; data: { payment_id: string } };

/** Before its invoice declined the payment; once it did, and the refund was asked. */
export type UnappliedPaymentState = { status: 'awaiting_not_applied' } | { status: 'refund_asked'; paymentId: string };

type Output = ProcessOutput<RefundUnappliedPayment>;

const refund = (payment_id: string): Output[] => [{ kind: 'command', command: { type: 'RefundUnappliedPayment', data: { payment_id } } }];

/**
 * One process per payment that its invoice did not apply: it has the payment refunded, and again
 * when a dispute that held the money is won. The refund command fails over to the dispatcher's
 * retries and, when the provider keeps refusing, is parked for an operator: never dropped. It sets
 * no timers (a timer fired at it is none of its own).
 */
export const unappliedPaymentRefundDecider: ProcessDecider<UnappliedPaymentState, UnappliedPaymentInput | TimerFired | CommandRejected, Output> = {
  initialState: () => ({ status: 'awaiting_not_applied' }),

  evolve(state, message) {
    switch (message.kind) {
      case 'input':
        return message.input.type === 'InvoicePaymentNotApplied' ? { status: 'refund_asked', paymentId: message.input.data.payment_id } : state;
      case 'command':
      case 'schedule':
      case 'cancel':
      case 'event':
        return state;
      default:
        return assertNever(message);
    }
  },

  decide(input, state) {
    switch (input.type) {
      case 'InvoicePaymentNotApplied':
        return state.status === 'awaiting_not_applied' ? refund(input.data.payment_id) : [];
      case 'PaymentDisputeWon':
        return state.status === 'refund_asked' ? refund(state.paymentId) : [];
      case TIMER_FIRED:
      case COMMAND_REJECTED:
        return [];
      default:
        return assertNever(input);
    }
  },
};
