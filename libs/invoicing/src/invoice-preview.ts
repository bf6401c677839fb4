import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import Big from 'big.js';
import { DomainError, type Clock } from '@tally/kernel';
import { couponAggregate, couponIdOf, planAggregate, planIdOf, unredeemableReason, type Plan } from '@tally/catalog';
import { periodEnd, componentsInForce } from '@tally/catalog/published';
import { CLOCK, type RequestContext } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import type { TaxCustomer } from '@tally/tax';
import type { Discount, DiscountLevel } from './domain/discounts';
import type { InvoiceTotals } from './domain/invoice-calculator';
import { priceLines } from './domain/invoice-lines';
import { describedTaxCustomer, parseQuantities } from './domain/preview-inputs';
import { InvoiceTaxation } from './invoice-totals';

export interface PreviewRequest {
  plan: string;
  customer: { id: string } | { country: string; region: string | null; tax_ids: { type: string; value: string }[] } | null;
  quantities: Record<string, unknown>;
  usage: Record<string, unknown>;
  discounts: { coupon: string; level: DiscountLevel }[];
  /** ISO 8601 UTC; the prices in force then apply. Default now. */
  period_start: string | undefined;
}

export interface InvoicePreview extends InvoiceTotals {
  plan: Plan;
  customer_id: string | null;
  period_start: string;
  period_end: string;
  /** null when the tenant has set no tax origin, and no tax was calculated. */
  tax_table_version: string | null;
  reverse_charge: boolean;
}

export class PreviewInvoiceQuery extends Query<InvoicePreview> {
  constructor(
    readonly context: RequestContext,
    readonly request: PreviewRequest,
  ) {
    super();
  }
}

/**
 * The invoice a plan would produce for one period, from the aggregates' own streams (so a plan or
 * coupon changed a moment ago counts): the prices in force at the period start, each line priced
 * and rounded on its own, the discounts, then the tax of the discounted lines.
 */
@QueryHandler(PreviewInvoiceQuery)
export class PreviewInvoiceHandler implements IQueryHandler<PreviewInvoiceQuery, InvoicePreview> {
  constructor(
    private readonly runtime: CommandRuntime,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly taxation: InvoiceTaxation,
  ) {}

  async execute({ context, request }: PreviewInvoiceQuery): Promise<InvoicePreview> {
    const now = this.clock.now().toISOString();
    const plan = await this.plan(context, request.plan);
    const start = request.period_start ?? now;
    const period = { start, end: periodEnd(start, plan.interval, plan.intervalCount) };
    const lines = priceLines(componentsInForce(plan.priceVersions, start), parseQuantities(request.quantities, request.usage), plan.currency, period);
    const customer = await this.taxCustomer(context, request.customer);
    const discounts = await this.discounts(context, request.discounts, plan.currency, now);
    const totals = await this.taxation.totals(context, { currency: plan.currency, behavior: plan.taxBehavior, date: start, customer, lines, discounts });
    return {
      ...totals,
      plan,
      customer_id: request.customer && 'id' in request.customer ? request.customer.id : null,
      period_start: period.start,
      period_end: period.end,
    };
  }

  private async plan(context: RequestContext, codeOrId: string): Promise<Plan> {
    const cell = this.runtime.cellOf(context);
    const { state } = await this.runtime.load(cell, planAggregate, planIdOf(context, codeOrId), context);
    if (state.status === 'none') throw planAggregate.notFound(codeOrId);
    if (state.status === 'deleted') throw DomainError.conflict('plan.deleted', `Plan ${state.code} is deleted`);
    return state;
  }

  private async discounts(context: RequestContext, wanted: PreviewRequest['discounts'], currency: string, now: string): Promise<Discount[]> {
    const cell = this.runtime.cellOf(context);
    const ids = wanted.map(({ coupon }) => couponIdOf(context, coupon));
    if (new Set(ids).size !== ids.length) throw DomainError.invalid('invoice_preview.duplicate_coupon', 'A coupon can discount an invoice once');
    return Promise.all(
      wanted.map(async ({ coupon: codeOrId, level }, i) => {
        const { state: coupon } = await this.runtime.load(cell, couponAggregate, ids[i], context);
        if (coupon.status === 'none') throw couponAggregate.notFound(codeOrId);
        const refusal = unredeemableReason(coupon, now);
        if (refusal) throw refusal;
        if (coupon.terms.amount_off !== null && coupon.terms.currency !== currency) {
          throw DomainError.invalid('coupon.currency_mismatch', `Coupon ${coupon.code} takes ${coupon.terms.currency} off; the plan bills in ${currency}`);
        }
        return {
          coupon_id: coupon.id,
          level,
          percent_off: coupon.terms.percent_off === null ? null : new Big(coupon.terms.percent_off),
          amount_off: coupon.terms.amount_off === null ? null : new Big(coupon.terms.amount_off),
          components: coupon.terms.applies_to?.components ?? null,
        };
      }),
    );
  }

  private async taxCustomer(context: RequestContext, customer: PreviewRequest['customer']): Promise<TaxCustomer> {
    if (customer === null) return { location: null, tax_ids: [], tax_id_invalid: false };
    if (!('id' in customer)) return describedTaxCustomer(customer.country, customer.region, customer.tax_ids);
    return this.taxation.taxCustomer(context, customer.id);
  }
}
