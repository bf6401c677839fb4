import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { ProcessManager } from '@tally/runtime';
import { refundAttemptsDecider, type RefundAttemptsCommand, type RefundAttemptsInput } from './domain/refund-attempts.decider';
import type { PaymentRefundReserved } from './domain/payment.events';
import type { RefundAttemptFailed, RefundCreated, RefundFailed, RefundReversed, RefundSucceeded } from './domain/refund.events';
import { Refunds } from './refunds';

/** A refund's making and its retries (see refundAttemptsDecider). */
@Injectable()
export class RefundAttemptsProcess implements ProcessManager<Record<string, never>, RefundAttemptsInput, RefundAttemptsCommand> {
  readonly name = 'refund_attempts';
  readonly streamPrefixes = ['payment-', 'refund-'];
  readonly decider = refundAttemptsDecider;
  readonly startsOn = ['PaymentRefundReserved'];

  constructor(private readonly refunds: Refunds) {}

  route(event: RecordedEvent): { processId: string; input: RefundAttemptsInput } | undefined {
    const input = inputOf(event);
    return input && { processId: input.data.refund_id, input };
  }

  async dispatch(command: RefundAttemptsCommand, context: RequestContext): Promise<void> {
    switch (command.type) {
      case 'OpenRefund':
        return this.refunds.open(context, command.data);
      case 'AttemptRefund':
        return this.refunds.attempt(context, command.data.refund_id, command.data.attempt);
      case 'RecordRefundOnCreditNote':
        return this.refunds.recordOnCreditNote(context, command.data.refund_id, command.data.refund_status, command.data.exhausted);
    }
  }
}

function inputOf(event: RecordedEvent): RefundAttemptsInput | undefined {
  const id = event.id;
  switch (event.type) {
    case 'PaymentRefundReserved':
      return { id, type: 'PaymentRefundReserved', data: event.data as PaymentRefundReserved['data'] };
    case 'RefundCreated':
      return { id, type: 'RefundCreated', data: { refund_id: (event.data as RefundCreated['data']).refund_id } };
    case 'RefundAttemptFailed': {
      const { refund_id, attempt, next_attempt_at } = event.data as RefundAttemptFailed['data'];
      return { id, type: 'RefundAttemptFailed', data: { refund_id, attempt, next_attempt_at } };
    }
    case 'RefundReversed': {
      const { refund_id, attempt, next_attempt_at } = event.data as RefundReversed['data'];
      return { id, type: 'RefundReversed', data: { refund_id, attempt, next_attempt_at } };
    }
    case 'RefundSucceeded':
      return { id, type: 'RefundSettled', data: { refund_id: (event.data as RefundSucceeded['data']).refund_id, refund_status: 'succeeded', exhausted: false } };
    case 'RefundFailed':
      return { id, type: 'RefundSettled', data: { refund_id: (event.data as RefundFailed['data']).refund_id, refund_status: 'failed', exhausted: true } };
    default:
      return undefined;
  }
}
