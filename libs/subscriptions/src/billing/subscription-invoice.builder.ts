import { Inject, Injectable } from '@nestjs/common';
import Big from 'big.js';
import { derivedId } from '@tally/kernel';
import { couponAggregate, couponIdOf, type Plan } from '@tally/catalog';
import { customerAggregate } from '@tally/customers';
import { DEFAULT_DUNNING, INVOICE_ID_PREFIX, subscriptionInvoiceId, taxCustomerOf, type Discount, type DunningTerms, type InvoiceLine, type SubscriptionInvoiceInput } from '@tally/invoicing';
import type { TaxBehavior, TaxCode, TaxCustomer } from '@tally/tax';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import type { Period } from '../domain/billing-cycle';
import { remainingTimeCharges } from '../domain/prorations';
import type { ProrationItem } from '../domain/subscription.events';
import { licensedCharges, licensedLines, loadPlan, usageLines, usageMeters } from '../plan-terms';
import { subscriptionAggregate } from '../subscription.aggregate';
import type { InvoiceRequest } from './invoice-request';
import { USAGE_READINGS, type UsageReadings } from './usage-readings.port';

export type PricedLine = InvoiceLine & { proration: boolean };

/** An invoice of a subscription, priced and ready for the invoice aggregate, which adds tax and a number. */
export interface SubscriptionInvoiceDraft {
  invoiceId: string;
  currency: string;
  taxBehavior: TaxBehavior;
  period: Period;
  lines: PricedLine[];
  discounts: Discount[];
  /** What collecting it takes: the method to charge, and the retry terms of a failed payment. */
  paymentMethodId: string | null;
  dunning: DunningTerms;
  /** The customer as the tax rules see it, from the same read as the method (undefined: no active customer). */
  taxCustomer?: TaxCustomer;
}

type PricedRequest = Omit<InvoiceRequest, 'collection' | 'customer_id'>;
type Payer = Pick<SubscriptionInvoiceDraft, 'paymentMethodId' | 'taxCustomer'>;

/**
 * Prices a subscription's invoice as its cycle asked for it: the licensed components of a period
 * in advance, at the price-book entries in force at its start; the usage of a closed period in
 * arrears, at those in force at that period's start; then the prorations, and the subscription's
 * coupons still in their duration.
 */
@Injectable()
export class SubscriptionInvoiceBuilder {
  constructor(
    private readonly runtime: CommandRuntime,
    @Inject(USAGE_READINGS) private readonly usage: UsageReadings,
  ) {}

  async build(context: RequestContext, request: PricedRequest): Promise<SubscriptionInvoiceDraft> {
    return this.priced(context, request, await this.payer(context, request.subscription_id));
  }

  /**
   * A page of invoices (each subscription once), each settled as `build` settles it, their
   * subscriptions read in one batched read and their customers in another.
   */
  async buildEach(items: readonly { context: RequestContext; request: PricedRequest }[]): Promise<PromiseSettledResult<SubscriptionInvoiceDraft>[]> {
    const payers = await this.payers(items.map(({ context, request }) => ({ id: request.subscription_id, context })));
    return Promise.allSettled(
      items.map(async ({ context, request }, i) => {
        const payer = payers[i];
        if (payer.status === 'rejected') throw payer.reason;
        return this.priced(context, request, payer.value);
      }),
    );
  }

  private async priced(context: RequestContext, request: PricedRequest, payer: Payer): Promise<SubscriptionInvoiceDraft> {
    const plan = await loadPlan(this.runtime, context, request.plan_code);
    const planOf = async (code: string) => (code === plan.code ? plan : loadPlan(this.runtime, context, code));
    const licensed = request.licensed ? licensedOf(await planOf(request.licensed.plan_code), request.licensed) : [];
    const usage = request.usage ? await this.usageLines(context, request.subscription_id, await planOf(request.usage.plan_code), request.usage.period) : [];
    const prorations = request.prorations.map(prorationLine);
    const lines: PricedLine[] = [...licensed, ...usage.map(notProrated), ...prorations];
    return {
      invoiceId: invoiceIdOf(request),
      currency: plan.currency,
      taxBehavior: plan.taxBehavior,
      period: request.licensed?.period ?? request.usage?.period ?? spanOf(request.prorations),
      lines,
      discounts: await this.discounts(context, request.coupons, request.period_number, plan.currency),
      ...payer,
      dunning: plan.dunningPolicy ? { ...plan.dunningPolicy, use_provider_hints: plan.dunningPolicy.use_provider_hints ?? true } : DEFAULT_DUNNING,
    };
  }

  /**
   * The subscription's own default method, else its customer's, as they are at the invoice's
   * issue, and the customer as the tax rules see it: the customer (personal data, never kept
   * folded) is read and decrypted once for both.
   */
  private async payer(context: RequestContext, subscriptionId: string): Promise<Payer> {
    const [payer] = await this.payers([{ id: subscriptionId, context }]);
    if (payer.status === 'rejected') throw payer.reason;
    return payer.value;
  }

  /** The payers of a page of subscriptions: the subscriptions in one batched read, their customers (each once) in another. */
  private async payers(subscriptions: readonly { id: string; context: RequestContext }[]): Promise<PromiseSettledResult<Payer>[]> {
    const loaded = await this.runtime.loadEach(subscriptionAggregate, subscriptions);
    const customers = new Map<string, { id: string; context: RequestContext }>();
    loaded.forEach((subscription, i) => {
      if (subscription.status === 'fulfilled' && subscription.value.state.status !== 'none') {
        const id = subscription.value.state.customerId;
        if (!customers.has(id)) customers.set(id, { id, context: subscriptions[i].context });
      }
    });
    const customerLoads = await this.runtime.loadEach(customerAggregate, [...customers.values()]);
    const customerOf = new Map([...customers.keys()].map((id, i) => [id, customerLoads[i]]));
    return loaded.map((subscription): PromiseSettledResult<Payer> => {
      if (subscription.status === 'rejected') return subscription;
      const { state } = subscription.value;
      if (state.status === 'none') return { status: 'fulfilled', value: { paymentMethodId: null } };
      const customer = customerOf.get(state.customerId)!;
      if (customer.status === 'rejected') return customer;
      const payer: Payer =
        customer.value.state.status !== 'active'
          ? { paymentMethodId: state.defaultPaymentMethodId ?? null }
          : { paymentMethodId: state.defaultPaymentMethodId ?? customer.value.state.defaultPaymentMethodId, taxCustomer: taxCustomerOf(customer.value.state) };
      return { status: 'fulfilled', value: payer };
    });
  }

  /** The usage lines of a closed period, priced with the plan's usage components in force at its start. */
  async usageLines(context: RequestContext, subscriptionId: string, plan: Plan, period: Period): Promise<InvoiceLine[]> {
    const meters = usageMeters(plan, period.start);
    if (meters.length === 0) return [];
    const readings = await this.usage.read(context, subscriptionId, meters, period);
    // Corrections may take a sum below zero; usage never bills less than nothing.
    return usageLines(plan, new Map([...readings].map(([meter, reading]) => [meter, reading.quantity.lt(0) ? new Big(0) : reading.quantity])), period);
  }

  /** The subscription's coupons that still apply to its `periodNumber`-th paid period. */
  private async discounts(context: RequestContext, codes: readonly string[], periodNumber: number, currency: string): Promise<Discount[]> {
    const cell = this.runtime.cellOf(context);
    const discounts: Discount[] = [];
    for (const code of codes) {
      const { state: coupon } = await this.runtime.load(cell, couponAggregate, couponIdOf(context, code), context);
      // A coupon deleted after its redemption keeps discounting, as Stripe's discounts outlive their coupon.
      if (coupon.status === 'none') continue;
      const { duration, duration_in_periods, percent_off, amount_off, currency: couponCurrency, applies_to } = coupon.terms;
      const inDuration = duration === 'forever' || (duration === 'once' ? periodNumber === 1 : periodNumber <= (duration_in_periods ?? 0));
      if (!inDuration || (amount_off !== null && couponCurrency !== currency)) continue;
      discounts.push({
        coupon_id: coupon.id,
        level: 'subscription',
        percent_off: percent_off === null ? null : new Big(percent_off),
        amount_off: amount_off === null ? null : new Big(amount_off),
        components: applies_to?.components ?? null,
      });
    }
    return discounts;
  }
}

/** What the invoice aggregate is asked to issue: the draft, collected as the request says (a pause's behaviour, or charged). */
export function issueInput(draft: SubscriptionInvoiceDraft, request: Pick<InvoiceRequest, 'customer_id' | 'subscription_id' | 'billing_reason' | 'collection'>): SubscriptionInvoiceInput {
  return {
    invoice_id: draft.invoiceId,
    customer_id: request.customer_id,
    subscription_id: request.subscription_id,
    currency: draft.currency,
    tax_behavior: draft.taxBehavior,
    billing_reason: request.billing_reason,
    period_start: draft.period.start,
    period_end: draft.period.end,
    lines: draft.lines,
    discounts: draft.discounts,
    auto_charge: request.collection === 'charge',
    finalize: request.collection !== 'keep_as_draft',
    payment_method_id: draft.paymentMethodId,
    dunning: draft.dunning,
    ...(draft.taxCustomer && { tax_customer: draft.taxCustomer }),
  };
}

/**
 * One invoice per (subscription, period): a period's invoice id derives from the subscription and
 * the period's start, the others' from their key (`proration:<when>`, `final:<when>`).
 */
export function invoiceIdOf(request: Pick<InvoiceRequest, 'subscription_id' | 'key'>): string {
  const [kind, at] = [request.key.slice(0, request.key.indexOf(':')), request.key.slice(request.key.indexOf(':') + 1)];
  return kind === 'period' ? subscriptionInvoiceId(request.subscription_id, at) : derivedId(INVOICE_ID_PREFIX, [request.subscription_id, request.key]);
}

const notProrated = (line: InvoiceLine): PricedLine => ({ ...line, proration: false });

/**
 * The licensed components of a period, in advance. A first period shorter than the cycle's (a
 * stub) is charged the remaining time of its whole period, itemised as prorations, as Stripe bills
 * the time up to a billing cycle anchor.
 */
function licensedOf(plan: Plan, { quantities, period, whole_period }: NonNullable<InvoiceRequest['licensed']>): PricedLine[] {
  if (!whole_period) return licensedLines(plan, quantities, period).map(notProrated);
  return remainingTimeCharges(licensedCharges(plan, quantities, period), whole_period, period.start, plan.currency).map(prorationLine);
}

function prorationLine(item: ProrationItem): PricedLine {
  const amount = new Big(item.amount);
  return {
    code: item.code,
    description: item.description,
    quantity: new Big(1),
    unit_amount: item.amount,
    amount,
    tiers: [],
    tax_code: item.tax_code as TaxCode,
    price_version: item.price_version,
    period_start: item.period_start,
    period_end: item.period_end,
    proration: true,
  };
}

function spanOf(items: readonly ProrationItem[]): Period {
  const starts = items.map((item) => item.period_start).sort();
  const ends = items.map((item) => item.period_end).sort();
  return { start: starts[0], end: ends[ends.length - 1] };
}
