import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { CommandBus } from '@nestjs/cqrs';
import { Commands, SendToAggregate } from '@tally/runtime';
import { subscriptionAggregate } from '../subscription.aggregate';
import { InvoiceOutcomesReaction } from './invoice-outcomes.reaction';

const recorded = (type: string, data: object): RecordedEvent => ({ id: 'e1', stream: 'invoice-in_1', revision: 3, position: 9n, type, data, metadata: {} as RecordedEvent['metadata'] });

describe('the invoice outcomes reaction', () => {
  const sent: unknown[] = [];
  const bus = { execute: async (command: unknown) => void sent.push(command) } as CommandBus;
  const reaction = new InvoiceOutcomesReaction(new Commands(bus));

  it('tells the subscription its invoice was paid, or that its payment failed, in the subscription’s lane', () => {
    expect(reaction.commandOf(recorded('InvoicePaid', { invoice_id: 'in_1', subscription_id: 'sub_1' }))).toEqual({ lane: 'sub_1', command: { type: 'RecordInvoicePaid', data: { subscription_id: 'sub_1', invoice_id: 'in_1' } } });
    expect(reaction.commandOf(recorded('InvoicePaymentFailed', { invoice_id: 'in_1', payment_id: 'pay_1', subscription_id: 'sub_1', last_error: {} }))).toEqual({
      lane: 'sub_1',
      command: { type: 'MarkPastDue', data: { subscription_id: 'sub_1', invoice_id: 'in_1' } },
    });
  });

  it('leaves invoices without a subscription, and other invoice events, alone', () => {
    expect(reaction.commandOf(recorded('InvoicePaid', { invoice_id: 'in_1', subscription_id: null }))).toBeUndefined();
    expect(reaction.commandOf(recorded('InvoiceFinalized', { invoice_id: 'in_1' }))).toBeUndefined();
  });

  it('sends the command to the subscription aggregate under the dispatched context', async () => {
    const context = { commandId: 'cmd_1' } as RequestContext;
    const command = { type: 'RecordInvoicePaid' as const, data: { subscription_id: 'sub_1', invoice_id: 'in_1' } };
    await reaction.dispatch(command, context);
    expect(sent).toEqual([new SendToAggregate(subscriptionAggregate, 'sub_1', command, context, {})]);
  });
});
