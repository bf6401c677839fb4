import { Injectable } from '@nestjs/common';
import Big from 'big.js';
import type { RequestContext } from '@tally/cells';
import { customerAggregate } from '@tally/customers';
import { Clocks, CommandRuntime, type CommandOutcome } from '@tally/runtime';
import type { TaxCustomer } from '@tally/tax';
import { discountOf } from './domain/discount-terms';
import type { Discount } from './domain/discounts';
import type { InvoiceLine } from './domain/invoice-lines';
import { invoiceDecider, type FinalizeInvoice, type InvoiceFacts, type InvoiceState } from './domain/invoice.decider';
import type { InvoiceTotalsData } from './domain/invoice.events';
import { invoiceAggregate } from './invoice.aggregate';
import { InvoiceNumbering } from './invoice-numbering';
import { InvoiceTaxation, type ComputedInvoiceTotals } from './invoice-totals';
import { InvoiceWallets } from './invoice-wallets';
import type { InvoiceResource } from './invoice.view';

export type InvoiceOutcome = CommandOutcome<InvoiceState, InvoiceResource>;

export interface FinalizeOptions {
  /** A number reserved before (by a finalisation that crashed): finalise with it. */
  number?: string;
  /** `accept`: an invoice already finalised is fine (the billing process's retry); `refuse`: 409 `invoice.not_draft`. */
  whenFinal: 'accept' | 'refuse';
}

/**
 * Draft → open: the totals computed with the tax engine, the rules checked, then a number taken
 * from the sequence, then the invoice finalised with it. A crash between the last two leaves a
 * reservation that the invoice-numbering reaction finalises; a retry meanwhile reuses it.
 */
@Injectable()
export class InvoiceFinalizer {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly clocks: Clocks,
    private readonly taxation: InvoiceTaxation,
    private readonly numbering: InvoiceNumbering,
    private readonly wallets: InvoiceWallets,
  ) {}

  async finalize(context: RequestContext, invoiceId: string, options: FinalizeOptions): Promise<InvoiceOutcome> {
    const cell = this.runtime.cellOf(context);
    const loaded = await this.runtime.load(cell, invoiceAggregate, invoiceId, context);
    const { state } = loaded;
    if (state.status === 'none') throw invoiceAggregate.notFound(invoiceId);
    if (state.status !== 'draft' && (options.whenFinal === 'accept' || state.number === options.number)) {
      return { state, resource: loaded.resource, revision: loaded.revision, appended: [] };
    }
    const now = (await this.clocks.now(cell, loaded.clockId ?? context.clockId)).toISOString();
    const { line_ids, totals } = state.status === 'draft' ? await this.totalsOf(context, state, now) : { line_ids: [], totals: undefined };
    // Every rule is checked before a number is taken, so a refusal leaves no number unused.
    const payment_method_id = await this.automaticChargeMethod(context, state);
    const wallet = state.status === 'draft' ? await this.wallets.of(context, state.customerId, state.currency) : null;
    const trial: FinalizeInvoice = { type: 'FinalizeInvoice', data: { invoice_id: invoiceId, number: options.number ?? '?', now, line_ids, totals: totals!, payment_method_id, wallet } };
    invoiceDecider.decide(trial, state);
    const number = options.number ?? (await this.numbering.reserve(context, invoiceId));
    return this.runtime.execute(invoiceAggregate, invoiceId, (at): FinalizeInvoice => ({ type: 'FinalizeInvoice', data: { ...trial.data, number, now: at } }), context);
  }

  /** What an auto-charged draft that names no method is charged with: its customer's default now (null: none, no charge starts). */
  private async automaticChargeMethod(context: RequestContext, state: InvoiceFacts): Promise<string | null> {
    if (!state.autoCharge || state.paymentMethodId) return null;
    const customer = await this.runtime.load(this.runtime.cellOf(context), customerAggregate, state.customerId, context);
    return customer.state.status === 'active' ? customer.state.defaultPaymentMethodId : null;
  }

  /** The draft's discounts, tax and totals as they would be now, for the lines it has (`customer`: its customer as already read, else read here). */
  async totalsOf(context: RequestContext, state: InvoiceFacts, now: string, customer?: TaxCustomer): Promise<{ line_ids: string[]; totals: InvoiceTotalsData }> {
    const lines: InvoiceLine[] = state.lines.map((line) => ({
      code: line.code ?? line.line_id,
      description: line.description,
      quantity: new Big(line.quantity),
      unit_amount: line.unit_amount,
      amount: new Big(line.amount),
      tiers: [],
      tax_code: line.tax_code,
      price_version: line.price_version ?? 0,
      period_start: line.period_start ?? '',
      period_end: line.period_end ?? '',
    }));
    const discounts: Discount[] = state.discounts.map(discountOf);
    const taxed = customer ?? (await this.taxation.taxCustomer(context, state.customerId));
    const computed = await this.taxation.totals(context, { currency: state.currency, behavior: state.taxBehavior, date: state.periodStart ?? now, customer: taxed, lines, discounts });
    const totals = totalsData(state.lines.map((line) => line.line_id), computed);
    return { line_ids: state.lines.map((line) => line.line_id), totals };
  }
}

/** Computed totals as the finalisation's event stores them, for lines with these ids (in order). */
export function totalsData(lineIds: readonly string[], computed: ComputedInvoiceTotals): InvoiceTotalsData {
  return {
    lines: computed.lines.map((line, i) => ({
      line_id: lineIds[i],
      discount_amount: line.discount_amount.toFixed(),
      tax_amount: line.tax_amount.toFixed(),
      tax_rate: line.tax_rate.toFixed(),
      total: line.total.toFixed(),
    })),
    subtotal: computed.subtotal.toFixed(),
    discount: computed.discount.toFixed(),
    tax: computed.tax.toFixed(),
    total: computed.total.toFixed(),
    tax_breakdown: computed.tax_breakdown.map((entry) => ({
      jurisdiction: entry.jurisdiction,
      country: entry.country,
      region: entry.region,
      tax_type: entry.tax_type,
      rate: entry.rate.toFixed(),
      taxability_reason: entry.taxability_reason,
      taxable_amount: entry.taxable_amount.toFixed(),
      tax_amount: entry.tax_amount.toFixed(),
    })),
    discounts: computed.discounts.map((applied) => ({ coupon_id: applied.coupon_id, level: applied.level, amount: applied.amount.toFixed() })),
    tax_table_version: computed.tax_table_version,
    reverse_charge: computed.reverse_charge,
  };
}
