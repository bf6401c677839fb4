import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { CommandBus } from '@nestjs/cqrs';
import type { InvoiceResource } from '@tally/invoicing';
import { Commands, type CommandRuntime } from '@tally/runtime';
import { RefundRecognitionReaction } from './refund-recognition.reaction';

const recorded = (type: string, data: object): RecordedEvent => ({ id: 'e1', stream: 'invoice-in_1', revision: 3, position: 9n, type, data, metadata: {} as RecordedEvent['metadata'] });

describe('the refund recognition reaction', () => {
  const sent: unknown[] = [];
  const bus = { execute: async (command: unknown) => void sent.push(command) } as CommandBus;
  /** A paid invoice of one 40.00 line over four days (47.60 with tax), credited half on its third day. */
  let invoice: Partial<InvoiceResource> = {
    status: 'paid',
    subscription_id: 'sub_1',
    currency: 'EUR',
    tax_behavior: 'exclusive',
    issued_at: '2026-03-01T00:00:00.000Z',
    created_at: '2026-03-01T00:00:00.000Z',
    lines: [{ id: 'il_1', amount: '40.00', discount_amount: '0.00', tax_amount: '7.60', period_start: '2026-03-01T00:00:00.000Z', period_end: '2026-03-05T00:00:00.000Z' } as InvoiceResource['lines'][number]],
    credit_notes: [
      {
        id: 'cn_1',
        object: 'credit_note',
        number: 'CN-000001',
        amount: '23.80',
        invoice_id: 'in_1',
        customer_id: 'cus_1',
        currency: 'EUR',
        reason: 'order_change',
        memo: null,
        lines: [],
        tax_amount: '3.80',
        type: 'post_payment',
        outcome: { kind: 'refund', refund_status: 'succeeded' },
        refund_id: 'rfd_1',
        payment_id: 'pay_1',
        resolution: null,
        pdf_url: null,
        created_at: '2026-03-03T08:00:00.000Z',
      },
    ],
  };
  const runtime = { cellOf: () => undefined, load: async () => ({ resource: invoice }) } as unknown as CommandRuntime;
  const reaction = new RefundRecognitionReaction(runtime, new Commands(bus));
  const announce = { type: 'AnnounceCreditNote' as const, data: { invoice_id: 'in_1', credit_note_id: 'cn_1', refund_id: 'rfd_1' } };

  it('picks every credit note, in its invoice’s lane, with the refund that issued it (null without one)', () => {
    expect(reaction.commandOf(recorded('CreditNoteIssued', { invoice_id: 'in_1', credit_note_id: 'cn_1', refund_id: 'rfd_1' }))).toEqual({ lane: 'in_1', command: announce });
    expect(reaction.commandOf(recorded('CreditNoteIssued', { invoice_id: 'in_1', credit_note_id: 'cn_1' }))?.command.data.refund_id).toBeNull();
    expect(reaction.commandOf(recorded('InvoicePaid', { invoice_id: 'in_1', subscription_id: 'sub_1' }))).toBeUndefined();
  });

  it('tells the subscription what the credit note took off the schedule: the recognised part reversed, the deferred part removed', async () => {
    await reaction.dispatch(announce, {} as RequestContext);
    expect(sent.pop()).toMatchObject({
      id: 'sub_1',
      command: {
        type: 'RecordRefundProcessed',
        data: { subscription_id: 'sub_1', invoice_id: 'in_1', credit_note_id: 'cn_1', refund_id: 'rfd_1', amount: '23.80', currency: 'EUR', revenue_reduced: '20.00', recognized_reversed: '10.00', deferred_reduced: '10.00', processed_at: '2026-03-03T08:00:00.000Z' },
      },
    });
  });

  it('sends nothing for an invoice without a subscription', async () => {
    invoice = { ...invoice, subscription_id: null };
    await reaction.dispatch(announce, {} as RequestContext);
    expect(sent).toEqual([]);
  });
});
