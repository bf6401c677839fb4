import { Injectable } from '@nestjs/common';
import Big from 'big.js';
import { derivedId, DomainError, type Metadata } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime, Commands, type Loaded } from '@tally/runtime';
import type { TaxBehavior, TaxCode, TaxCustomer } from '@tally/tax';
import type { DunningTerms } from './domain/collection-terms';
import type { Discount } from './domain/discounts';
import { invoiceDecider, type CreateInvoice, type FinalizationWallet, type InvoiceFacts, type InvoiceState, type IssueInvoice } from './domain/invoice.decider';
import type { BillingReason } from './domain/invoice.events';
import type { InvoiceIssue } from './domain/invoice-number-sequence';
import { INVOICE_LINE_ID_PREFIX, invoiceAggregate } from './invoice.aggregate';
import type { InvoiceResource } from './invoice.view';
import { InvoiceFinalizer } from './invoice-finalizer';
import { InvoiceWallets } from './invoice-wallets';
import { written, type InvoiceWritten } from './invoice-drafts';
import { InvoiceNumbering } from './invoice-numbering';

/** A line the billing process priced: amounts already rounded to the currency (decimal strings or Big, never numbers). */
export interface SubscriptionInvoiceLine {
  code: string;
  description: string;
  quantity: string | Big;
  unit_amount: string | null;
  amount: string | Big;
  period_start: string;
  period_end: string;
  proration: boolean;
  price_version: number | null;
  tax_code: TaxCode;
}

export interface SubscriptionInvoiceInput {
  /** subscriptionInvoiceId(subscription_id, period_start): one invoice per (subscription, period). */
  invoice_id: string;
  customer_id: string;
  subscription_id: string;
  currency: string;
  tax_behavior: TaxBehavior;
  billing_reason: Exclude<BillingReason, 'manual'>;
  period_start: string;
  period_end: string;
  lines: SubscriptionInvoiceLine[];
  /** Applied at finalisation with applyDiscounts, in level order. */
  discounts: Discount[];
  auto_charge: boolean;
  /** false: leave it a draft (a pause with `keep_as_draft`). */
  finalize: boolean;
  /** The method to charge: the subscription's default, else its customer's, at issue (null: none). */
  payment_method_id: string | null;
  /** The plan's dunning policy, its defaults filled in, or Tally's default. */
  dunning: DunningTerms;
  /** The customer as the tax rules see it, when the caller read it already (else it is read for the totals). */
  tax_customer?: TaxCustomer;
  description?: string | null;
  metadata?: Metadata;
}

/** The draft of a subscription's invoice as its creation states it; line ids derive from the invoice's, so a retry states the very same lines. */
export function subscriptionInvoiceCreation(input: SubscriptionInvoiceInput, now: string): CreateInvoice {
  const id = input.invoice_id;
  return {
    type: 'CreateInvoice',
    data: {
      invoice_id: id,
      customer_id: input.customer_id,
      subscription_id: input.subscription_id,
      billing_reason: input.billing_reason,
      currency: input.currency,
      tax_behavior: input.tax_behavior,
      auto_charge: input.auto_charge,
      description: input.description ?? null,
      due_at: null,
      days_until_due: null,
      period_start: input.period_start,
      period_end: input.period_end,
      metadata: input.metadata ?? {},
      payment_method_id: input.payment_method_id,
      dunning: input.dunning,
      lines: input.lines.map((line, i) => ({
        line_id: derivedId(INVOICE_LINE_ID_PREFIX, [id, String(i)]),
        code: line.code,
        description: line.description,
        quantity: new Big(line.quantity).toFixed(),
        unit_amount: line.unit_amount,
        amount: new Big(line.amount).toFixed(),
        period_start: line.period_start,
        period_end: line.period_end,
        proration: line.proration,
        price_version: line.price_version,
        tax_code: line.tax_code,
        metadata: {},
      })),
      discounts: input.discounts.map((discount) => ({
        coupon_id: discount.coupon_id,
        level: discount.level,
        percent_off: discount.percent_off?.toFixed() ?? null,
        amount_off: discount.amount_off?.toFixed() ?? null,
        components: discount.components === null ? null : [...discount.components],
      })),
      now,
    },
  };
}

/**
 * Issues a subscription's invoice: priced, taxed and checked first, then its number reserved (the
 * reservation carrying the invoice), then created and finalised in one append, with the automatic
 * charge's attempt when it has a method (docs/decisions.md, "An invoice issued in one append").
 * A crash between the two appends is completed by the numbering reaction; an issue sent again
 * answers the invoice as it is.
 */
@Injectable()
export class SubscriptionInvoiceIssuer {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly clocks: Clocks,
    private readonly finalizer: InvoiceFinalizer,
    private readonly numbering: InvoiceNumbering,
    private readonly wallets: InvoiceWallets,
  ) {}

  async issue(context: RequestContext, input: SubscriptionInvoiceInput): Promise<InvoiceWritten> {
    const [outcome] = await this.issueEach([{ context, input }]);
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  }

  /**
   * A page of issues (each invoice once), each settled as `issue` alone settles it, at a page's
   * cost: the invoices' streams read in one batched read, their numbers asked for together (so one
   * reservation takes them, up to MAX_RESERVED_AT_ONCE) and their issues appended together.
   */
  async issueEach(items: readonly { context: RequestContext; input: SubscriptionInvoiceInput }[]): Promise<PromiseSettledResult<InvoiceWritten>[]> {
    const loads = await this.runtime.loadEach(invoiceAggregate, items.map(({ context, input }) => ({ id: input.invoice_id, context })));
    // An invoice a pause closes at once (not charged) is not settled from the wallet either.
    const walletQueries = items.flatMap(({ context, input }, i) => (input.finalize && input.auto_charge ? [{ i, query: { context, customerId: input.customer_id, currency: input.currency } }] : []));
    const found = await this.wallets.ofEach(walletQueries.map(({ query }) => query));
    const walletOf = new Map(walletQueries.map(({ i }, k) => [i, found[k]]));
    const settled = await Promise.allSettled(items.map(({ context, input }, i) => this.beforeNumber(context, input, loads[i], walletOf.get(i) ?? null)));
    const ready = settled.flatMap((outcome, i) => (outcome.status === 'fulfilled' && 'issue' in outcome.value ? [{ i, issue: outcome.value.issue }] : []));
    const { numbered, sent } = await this.numbering.whileIssuing(
      ready.map(({ i }) => items[i].input.invoice_id),
      async () => {
        const numbered = await Promise.allSettled(ready.map(async ({ i, issue }) => issued(issue, await this.numbering.reserve(items[i].context, items[i].input.invoice_id, issue))));
        const toSend = numbered.flatMap((outcome, k) => (outcome.status === 'fulfilled' ? [{ i: ready[k].i, command: outcome.value }] : []));
        const sent = await this.runtime.executeEach(invoiceAggregate, toSend.map(({ i, command }) => ({ id: items[i].input.invoice_id, command, context: items[i].context })));
        return { numbered: new Map(ready.map(({ i }, k) => [i, numbered[k]])), sent: new Map(toSend.map(({ i }, k) => [i, sent[k]])) };
      },
    );
    return settled.map((outcome, i): PromiseSettledResult<InvoiceWritten> => {
      if (outcome.status === 'rejected') return outcome;
      if ('written' in outcome.value) return { status: 'fulfilled', value: outcome.value.written };
      const number = numbered.get(i)!;
      if (number.status === 'rejected') return number;
      const append = sent.get(i)!;
      return append.status === 'rejected' ? append : { status: 'fulfilled', value: written(append.value) };
    });
  }

  /** The invoice as it is (a repeated issue, a draft finalised), or its issue checked and ready for its number. */
  private async beforeNumber(
    context: RequestContext,
    input: SubscriptionInvoiceInput,
    load: PromiseSettledResult<InvoiceLoaded>,
    wallet: FinalizationWallet | null,
  ): Promise<{ written: InvoiceWritten } | { issue: InvoiceIssue }> {
    const id = input.invoice_id;
    if (!input.finalize) return { written: written(await this.commands.send(invoiceAggregate, id, (now) => subscriptionInvoiceCreation(input, now), context)) };
    if (load.status === 'rejected') throw load.reason;
    const loaded = load.value;
    // A draft of an issue that stopped half-way before invoices were issued in one append.
    if (loaded.state.status === 'draft') return { written: written(await this.finalizer.finalize(context, id, { whenFinal: 'accept' })) };
    if (loaded.state.status !== 'none') return { written: written({ ...loaded, appended: [] }) };
    const now = (await this.clocks.now(this.runtime.cellOf(context), context.clockId)).toISOString();
    const creation = subscriptionInvoiceCreation(input, now);
    const issue = await this.checkedIssue(context, creation, now, input.tax_customer, wallet).catch(async (refusal: unknown) => {
      // It cannot be finalised yet (no tax rate in force): it stays a draft, as Stripe's does, until the issue is retried.
      if (refusal instanceof DomainError) await this.commands.send(invoiceAggregate, id, creation, context);
      throw refusal;
    });
    return { issue };
  }

  /** The issue with its totals, every rule checked, so a refusal comes before a number is taken and leaves none unused. */
  private async checkedIssue(context: RequestContext, creation: CreateInvoice, now: string, customer: TaxCustomer | undefined, wallet: FinalizationWallet | null): Promise<InvoiceIssue> {
    const initial = invoiceDecider.initialState();
    const draft = invoiceDecider.decide(creation, initial).reduce(invoiceDecider.evolve, initial) as InvoiceFacts;
    const totals = await this.finalizer.totalsOf(context, draft, now, customer);
    const issue: InvoiceIssue = { command: { creation: creation.data, ...totals, ...(wallet && { wallet }) }, clock_id: context.clockId ?? null };
    invoiceDecider.decide(issued(issue, '?'), initial);
    return issue;
  }
}

type InvoiceLoaded = Loaded<InvoiceState, InvoiceResource>;

/** The command that issues the invoice a reservation carries, with the number reserved. */
export const issued = (issue: InvoiceIssue, number: string): IssueInvoice => ({ type: 'IssueInvoice', data: { ...issue.command, number } });
