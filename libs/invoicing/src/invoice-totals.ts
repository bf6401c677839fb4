import { Inject, Injectable } from '@nestjs/common';
import type Big from 'big.js';
import { customerAggregate } from '@tally/customers';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import { TAX_ENGINE, taxSettingsAggregate, taxSettingsIdOf, type TaxBehavior, type TaxCustomer, type TaxEngine, type TaxLocation } from '@tally/tax';
import { applyDiscounts, type Discount } from './domain/discounts';
import { totalInvoice, type InvoiceTotals } from './domain/invoice-calculator';
import type { InvoiceLine } from './domain/invoice-lines';
import { taxCustomerOf } from './domain/preview-inputs';

export interface TotalsRequest {
  currency: string;
  behavior: TaxBehavior;
  /** ISO 8601; the tax rates in force then apply. */
  date: string;
  customer: TaxCustomer;
  lines: readonly InvoiceLine[];
  discounts: readonly Discount[];
}

export interface ComputedInvoiceTotals extends InvoiceTotals {
  /** null when the tenant has set no tax origin, and no tax was calculated. */
  tax_table_version: string | null;
  reverse_charge: boolean;
}

/**
 * An invoice's discounts, tax and totals, for the preview, a draft's recomputed tax and its
 * finalisation alike: the discounts in their order, then the tax of the discounted lines through
 * the tax engine from the tenant's tax origin (none set: no tax), then totalInvoice.
 */
@Injectable()
export class InvoiceTaxation {
  constructor(
    private readonly runtime: CommandRuntime,
    @Inject(TAX_ENGINE) private readonly taxes: TaxEngine,
  ) {}

  async totals(context: RequestContext, request: TotalsRequest): Promise<ComputedInvoiceTotals> {
    const { currency, behavior, date, customer, lines } = request;
    const discounted = applyDiscounts(lines, request.discounts, currency);
    const origin = await this.origin(context);
    const taxOf = (seller: TaxLocation, amounts: readonly Big[]) =>
      this.taxes.calculate({ currency, date, behavior, seller, customer, lines: lines.map((line, i) => ({ key: line.code, amount: amounts[i], tax_code: line.tax_code })) });
    const tax = origin && (await taxOf(origin, discounted.lines.map((line) => line.amount_after)));
    // Only inclusive prices with a discount need the tax of the undiscounted prices (totalInvoice uses `tax` otherwise).
    const discountedSomething = discounted.applied.some((applied) => applied.amount.gt(0));
    const taxBeforeDiscounts = origin && behavior === 'inclusive' && discountedSomething ? await taxOf(origin, lines.map((line) => line.amount)) : null;
    return {
      ...totalInvoice({ behavior, lines, discounted, tax, taxBeforeDiscounts }),
      tax_table_version: tax?.table_version ?? null,
      reverse_charge: tax?.reverse_charge ?? false,
    };
  }

  /** The customer as the tax rules see it; a customer that does not exist in this tenant is not found. */
  async taxCustomer(context: RequestContext, customerId: string): Promise<TaxCustomer> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), customerAggregate, customerId, context);
    if (state.status !== 'active') throw customerAggregate.notFound(customerId);
    return taxCustomerOf(state);
  }

  private async origin(context: RequestContext): Promise<TaxLocation | null> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), taxSettingsAggregate, taxSettingsIdOf(context), context);
    return state.origin;
  }
}
