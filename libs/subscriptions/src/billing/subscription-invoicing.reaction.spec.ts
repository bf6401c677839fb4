import type { RecordedEvent } from '@tally/eventstore';
import type { InvoiceBasis, SubscriptionEvent } from '../domain/subscription.events';
import type { SubscriptionInvoices } from './subscription-invoices';
import { SubscriptionInvoicingReaction } from './subscription-invoicing.reaction';

const id = 'sub_1';
const FEB = '2026-02-28T10:00:00.000Z';
const MAR = '2026-03-31T10:00:00.000Z';
const terms = { plan_code: 'pro', quantities: { seats: 2 }, coupons: ['WELCOME'], prorations: [] };
const basis: InvoiceBasis = {
  customer_id: 'cus_1',
  billing_reason: 'subscription_cycle',
  plan_code: 'pro',
  coupons: ['WELCOME'],
  period_number: 2,
  usage: { plan_code: 'basic', period: { start: '2026-01-31T10:00:00.000Z', end: FEB } },
  collection: 'charge',
};

let revision = 0;
const stored = (event: SubscriptionEvent): RecordedEvent => ({ id: `e${revision}`, stream: `subscription-${id}`, revision: revision++, position: 0n, type: event.type, data: event.data, metadata: {} as RecordedEvent['metadata'] });

describe('the subscription invoicing reaction', () => {
  const reaction = new SubscriptionInvoicingReaction({} as SubscriptionInvoices);

  it('issues a renewal’s invoice from the event alone: the period in advance at its terms, the closed period’s usage, as its basis says', () => {
    const renewed = stored({ type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: FEB, period_end: MAR, terms, commitment_end: null, billing: basis } });
    expect(reaction.commandOf(renewed)).toEqual({
      lane: id,
      command: {
        type: 'IssueInvoice',
        data: {
          subscription_id: id,
          customer_id: 'cus_1',
          key: `period:${FEB}`,
          billing_reason: 'subscription_cycle',
          plan_code: 'pro',
          licensed: { plan_code: 'pro', quantities: { seats: 2 }, period: { start: FEB, end: MAR } },
          usage: basis.usage,
          prorations: [],
          coupons: ['WELCOME'],
          period_number: 2,
          collection: 'charge',
        },
      },
    });
  });

  it('keys an immediate proration’s invoice by its change and its event, so two changes at one instant are two invoices', () => {
    const changed = () =>
      stored({ type: 'SubscriptionPlanChanged', data: { subscription_id: id, plan_code: 'max', previous_plan_code: 'pro', changed_at: FEB, prorations: [], invoice_now: true, billing: { ...basis, usage: null } } });
    const keys = [changed(), changed()].map((event) => (reaction.commandOf(event)?.command.data as { key: string }).key);
    expect(keys).toEqual([`proration:${FEB}:e${revision - 2}`, `proration:${FEB}:e${revision - 1}`]);
  });

  it('issues nothing for an event that calls for no invoice', () => {
    expect(reaction.commandOf(stored({ type: 'SubscriptionPlanChanged', data: { subscription_id: id, plan_code: 'max', previous_plan_code: 'pro', changed_at: FEB, prorations: [], invoice_now: false } }))).toBeUndefined();
    expect(reaction.commandOf(stored({ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: FEB, reason: 'customer_deleted', prorations: [], final_invoice: false } }))).toBeUndefined();
    expect(reaction.commandOf(stored({ type: 'SubscriptionPaused', data: { subscription_id: id, paused_at: FEB, until: null, behavior: 'keep_as_draft' } }))).toBeUndefined();
  });

  it('finds the basis of an event stored before events carried it in the subscription’s history, up to the event', () => {
    const legacy = stored({ type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: FEB, period_end: MAR, terms, commitment_end: null, billing: 'from_history' } });
    expect(reaction.commandOf(legacy)).toEqual({ lane: id, command: { type: 'IssueRecordedInvoice', data: { subscription_id: id, revision: legacy.revision } } });
  });

  it('applies a pause’s behaviour to the invoices open when it began (up to its event), and voids the first invoice of an expired incomplete subscription', () => {
    const paused = stored({ type: 'SubscriptionPaused', data: { subscription_id: id, paused_at: FEB, until: null, behavior: 'mark_uncollectible' } });
    expect(reaction.commandOf(paused)).toEqual({ lane: id, command: { type: 'ApplyPauseToOpenInvoices', data: { subscription_id: id, behavior: 'mark_uncollectible', revision: paused.revision } } });
    expect(reaction.commandOf(stored({ type: 'SubscriptionIncompleteExpired', data: { subscription_id: id, expired_at: FEB, period_start: '2026-01-31T10:00:00.000Z' } }))).toEqual({
      lane: id,
      command: { type: 'VoidFirstInvoice', data: { subscription_id: id, key: 'period:2026-01-31T10:00:00.000Z' } },
    });
  });

  it('issues a page’s new invoices as one page and sends its other commands one by one, each settled in its place', async () => {
    const pages: string[][] = [];
    const alone: string[] = [];
    const invoices: Pick<SubscriptionInvoices, 'issueEach' | 'settleOpen'> = {
      issueEach: async (items) => {
        pages.push(items.map(({ request }) => request.subscription_id));
        return items.map(({ request }) => (request.subscription_id === 'sub_b' ? { status: 'rejected', reason: new Error('refused') } : { status: 'fulfilled', value: undefined }));
      },
      settleOpen: async (_context, subscriptionId) => void alone.push(subscriptionId),
    };
    const paged = new SubscriptionInvoicingReaction(invoices as SubscriptionInvoices);
    const context = {} as Parameters<SubscriptionInvoicingReaction['dispatch']>[1];
    const issue = (subscription_id: string) => ({ command: { type: 'IssueInvoice' as const, data: { subscription_id } as never }, context });

    const settled = await paged.dispatchEach([issue('sub_a'), { command: { type: 'VoidFirstInvoice', data: { subscription_id: 'sub_v', key: 'period:x' } }, context }, issue('sub_b')]);

    expect(pages).toEqual([['sub_a', 'sub_b']]);
    expect(alone).toEqual(['sub_v']);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
  });
});
