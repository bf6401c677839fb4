import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { CommandBus } from '@nestjs/cqrs';
import type { InvoiceState } from '@tally/invoicing';
import { Commands, SendToAggregate, type CommandRuntime } from '@tally/runtime';
import { subscriptionAggregate } from '../subscription.aggregate';
import { InvoiceOutcomesReaction } from './invoice-outcomes.reaction';

const recorded = (type: string, data: object): RecordedEvent => ({ id: 'e1', stream: 'invoice-in_1', revision: 3, position: 9n, type, data, metadata: {} as RecordedEvent['metadata'] });

describe('the invoice outcomes reaction', () => {
  const sent: unknown[] = [];
  const bus = { execute: async (command: unknown) => void sent.push(command) } as CommandBus;
  /** The invoice as its stream says it is now. */
  let invoice: Partial<InvoiceState> = { status: 'open', total: '10.00', amountPaid: '0.00', prePaymentCredit: '0.00' };
  const runtime = { cellOf: () => undefined, load: async () => ({ state: invoice }) } as unknown as CommandRuntime;
  const reaction = new InvoiceOutcomesReaction(runtime, new Commands(bus));

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
    const paid = { type: 'RecordInvoicePaid' as const, data: { subscription_id: 'sub_1', invoice_id: 'in_1' } };
    const failed = { type: 'MarkPastDue' as const, data: { subscription_id: 'sub_1', invoice_id: 'in_1' } };
    await reaction.dispatch(paid, context);
    await reaction.dispatch(failed, context);
    expect(sent).toEqual([new SendToAggregate(subscriptionAggregate, 'sub_1', paid, context, {}), new SendToAggregate(subscriptionAggregate, 'sub_1', failed, context, {})]);
  });

  it('makes nothing past due for a failure whose invoice was paid or voided since', async () => {
    sent.length = 0;
    for (const status of ['paid', 'void'] as const) {
      invoice = { ...invoice, status };
      await reaction.dispatch({ type: 'MarkPastDue', data: { subscription_id: 'sub_1', invoice_id: 'in_1' } }, { commandId: 'cmd_2' } as RequestContext);
    }
    expect(sent).toEqual([]);
  });
});
