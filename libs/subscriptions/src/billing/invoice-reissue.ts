import { Injectable } from '@nestjs/common';
import { DEFAULT_DUNNING, discountOf, invoiceAggregate, SubscriptionInvoiceIssuer, type InvoiceLine, type InvoiceLineData, type SubscriptionInvoiceLine } from '@tally/invoicing';
import { onClockOf, type RequestContext } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import type { Period } from '../domain/billing-cycle';
import { loadPlan } from '../plan-terms';
import { subscriptionAggregate } from '../subscription.aggregate';
import { SubscriptionInvoiceBuilder } from './subscription-invoice.builder';

export interface ReissueWithUsage {
  subscription_id: string;
  voided_invoice_id: string;
  invoice_id: string;
  usage_period: Period;
}

/** A subscription's invoice voided for usage that arrived after its period closed, issued again. */
@Injectable()
export class InvoiceReissue {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly builder: SubscriptionInvoiceBuilder,
    private readonly invoices: SubscriptionInvoiceIssuer,
  ) {}

  /**
   * The voided invoice issued again as `invoice_id`, its usage lines of `usage_period` priced anew
   * from the usage as it is counted now (late events included); its other lines, discounts and
   * collection as they were.
   */
  async withUsage(context: RequestContext, request: ReissueWithUsage): Promise<void> {
    const cell = this.runtime.cellOf(context);
    const { state: voided } = await this.runtime.load(cell, invoiceAggregate, request.voided_invoice_id, context);
    if (voided.status === 'none') throw invoiceAggregate.notFound(request.voided_invoice_id);
    const { state: subscription, clockId } = await this.runtime.load(cell, subscriptionAggregate, request.subscription_id, context);
    if (subscription.status === 'none') throw subscriptionAggregate.notFound(request.subscription_id);
    // The corrected invoice lives on the subscription's clock, as the one it replaces.
    const onClock = onClockOf(context, clockId);
    const plan = await loadPlan(this.runtime, onClock, subscription.planCode);
    const usage = await this.builder.usageLines(onClock, request.subscription_id, plan, request.usage_period);
    await this.invoices.issue(onClock, {
        invoice_id: request.invoice_id,
        customer_id: voided.customerId,
        subscription_id: request.subscription_id,
        currency: voided.currency,
        tax_behavior: voided.taxBehavior,
        billing_reason: 'subscription_cycle',
        period_start: voided.periodStart ?? request.usage_period.start,
        period_end: voided.periodEnd ?? request.usage_period.end,
        lines: withUsage(voided.lines, usage, request.usage_period),
        discounts: voided.discounts.map(discountOf),
        auto_charge: voided.autoCharge,
        finalize: true,
        payment_method_id: voided.paymentMethodId,
        dunning: voided.dunning ?? DEFAULT_DUNNING,
        description: `Replaces ${voided.number ?? voided.id}, with usage that arrived after its period closed`,
    });
  }
}

/** The invoice's lines with each usage line of the period replaced by its new pricing, in place; new usage lines last. */
function withUsage(lines: readonly InvoiceLineData[], usage: readonly InvoiceLine[], period: Period): SubscriptionInvoiceLine[] {
  const priced = new Map(usage.map((line) => [line.code, line]));
  const isUsageOfPeriod = (line: InvoiceLineData) => line.code !== null && priced.has(line.code) && !line.proration && line.period_start === period.start && line.period_end === period.end;
  const kept = lines.map((line): SubscriptionInvoiceLine => (isUsageOfPeriod(line) ? { ...priced.get(line.code!)!, proration: false } : asSubscriptionLine(line)));
  const added = usage.filter((line) => !lines.some((old) => old.code === line.code && isUsageOfPeriod(old))).map((line) => ({ ...line, proration: false }));
  return [...kept, ...added];
}

const asSubscriptionLine = (line: InvoiceLineData): SubscriptionInvoiceLine => ({
  code: line.code ?? line.line_id,
  description: line.description,
  quantity: line.quantity,
  unit_amount: line.unit_amount,
  amount: line.amount,
  period_start: line.period_start ?? '',
  period_end: line.period_end ?? '',
  proration: line.proration,
  price_version: line.price_version,
  tax_code: line.tax_code,
});
