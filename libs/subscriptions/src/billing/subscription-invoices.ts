import { Injectable } from '@nestjs/common';
import { invoiceAggregate, invoiceClosing, SubscriptionInvoiceIssuer } from '@tally/invoicing';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime, Commands, streamName } from '@tally/runtime';
import { invoiceBasisOf } from '../domain/invoice-basis';
import { subscriptionDecider, type SubscriptionState } from '../domain/subscription.decider';
import { subscriptionAggregate } from '../subscription.aggregate';
import { invoiceKeyOf, invoiceRequestOf, type InvoiceRequest, type StoredSubscriptionEvent } from './invoice-request';
import { invoiceIdOf, issueInput, SubscriptionInvoiceBuilder } from './subscription-invoice.builder';

/** What a pause does to the subscription's open invoices (`keep_as_draft` leaves them be). */
export type OpenInvoicesBehavior = 'void_invoices' | 'mark_uncollectible';

/**
 * The subscription's invoices, as its events call for them: issued (priced, created and, unless
 * kept as a draft, finalised on the subscription's clock, then collected as its pause says), and
 * voided or written off when a pause or an expiry says so. Which invoices the subscription has is
 * read from its own stream, never from a read model.
 */
@Injectable()
export class SubscriptionInvoices {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly builder: SubscriptionInvoiceBuilder,
    private readonly issuer: SubscriptionInvoiceIssuer,
    private readonly commands: Commands,
  ) {}

  /** An invoice without lines (a cancellation with nothing to credit and no usage) is not issued. */
  async issue(context: RequestContext, request: InvoiceRequest): Promise<void> {
    const [outcome] = await this.issueEach([{ context, request }]);
    if (outcome.status === 'rejected') throw outcome.reason;
  }

  /**
   * A page of invoices (each subscription once), each settled as `issue` settles it: priced with
   * their subscriptions and customers read a page at a time, then issued as a page (see
   * SubscriptionInvoiceIssuer.issueEach).
   */
  async issueEach(items: readonly { context: RequestContext; request: InvoiceRequest }[]): Promise<PromiseSettledResult<void>[]> {
    const drafts = await this.builder.buildEach(items);
    const toIssue = drafts.flatMap((draft, i) => (draft.status === 'fulfilled' && draft.value.lines.length > 0 ? [{ i, draft: draft.value }] : []));
    const issued = await this.issuer.issueEach(toIssue.map(({ i, draft }) => ({ context: items[i].context, input: issueInput(draft, items[i].request) })));
    const issuedOf = new Map(toIssue.map(({ i }, k) => [i, issued[k]]));
    return Promise.allSettled(
      drafts.map(async (draft, i) => {
        if (draft.status === 'rejected') throw draft.reason;
        const outcome = issuedOf.get(i);
        if (!outcome) return;
        if (outcome.status === 'rejected') throw outcome.reason;
        const { context, request } = items[i];
        if (outcome.value.invoice.status !== 'open') return;
        if (request.collection === 'void_invoices') await this.closeByPolicy(context, outcome.value.invoice.id, 'VoidInvoice');
        if (request.collection === 'mark_uncollectible') await this.closeByPolicy(context, outcome.value.invoice.id, 'MarkInvoiceUncollectible');
      }),
    );
  }

  /** The invoice of an event stored before events carried their invoice's basis: the basis is the state its history left. */
  async issueAsRecorded(context: RequestContext, subscriptionId: string, revision: number): Promise<void> {
    const history = await this.history(context, subscriptionId, revision + 1);
    const event = history.at(revision);
    if (!event) return;
    const before = history.slice(0, revision).reduce<SubscriptionState>(subscriptionDecider.evolve, subscriptionDecider.initialState());
    const basis = before.status === 'none' ? undefined : invoiceBasisOf(before, event);
    const request = basis && invoiceRequestOf(event, basis);
    if (request) await this.issue(context, request);
  }

  /**
   * The spec's pause `behavior` for the invoices open when the pause began: those the
   * subscription's events called for up to the pause (`revision`, its event's), whatever
   * happened after (a log read again must not void the invoices of a later period).
   */
  async applyPause(context: RequestContext, subscriptionId: string, behavior: OpenInvoicesBehavior, revision: number): Promise<void> {
    const issued = (await this.history(context, subscriptionId, revision + 1)).flatMap((event) => invoiceKeyOf(event) ?? []);
    await this.settleOpen(context, subscriptionId, behavior, issued);
  }

  /**
   * `void_invoices` voids the named invoices that are open without payments, `mark_uncollectible`
   * writes off those open or partly paid. Each invoice's own stream decides, so one paid meanwhile
   * is left alone; a payment still under way is canceled, or returned if it succeeds anyway.
   */
  async settleOpen(context: RequestContext, subscriptionId: string, behavior: OpenInvoicesBehavior, keys: readonly string[]): Promise<void> {
    const cell = this.runtime.cellOf(context);
    for (const key of new Set(keys)) {
      const id = invoiceIdOf({ subscription_id: subscriptionId, key });
      const { state } = await this.runtime.load(cell, invoiceAggregate, id, context);
      if (behavior === 'void_invoices' && state.status === 'open') await this.closeByPolicy(context, id, 'VoidInvoice');
      if (behavior === 'mark_uncollectible' && (state.status === 'open' || state.status === 'partially_paid')) await this.closeByPolicy(context, id, 'MarkInvoiceUncollectible');
    }
  }

  /** Voided or written off by policy: a payment someone started meanwhile is canceled, or returned if it succeeds anyway. */
  private async closeByPolicy(context: RequestContext, invoiceId: string, type: 'VoidInvoice' | 'MarkInvoiceUncollectible'): Promise<void> {
    await this.commands.send(invoiceClosing, invoiceId, { type, data: { invoice_id: invoiceId, cancel_open_payment: true } }, context);
  }

  /** The subscription's events as stored (the first `limit` of them), with their ids. */
  private async history(context: RequestContext, subscriptionId: string, limit?: number): Promise<StoredSubscriptionEvent[]> {
    const cell = this.runtime.cellOf(context);
    const stored = await cell.events.readStream(streamName(subscriptionAggregate.type, subscriptionId), { limit });
    return Promise.all(stored.map(async (event) => ({ id: event.id, type: event.type, data: await cell.pii.decode(event.type, event.data) }) as StoredSubscriptionEvent));
  }
}
