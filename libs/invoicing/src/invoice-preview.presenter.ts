import type Big from 'big.js';
import { formatAmount, formatExactAmount } from '@tally/kernel';
import type { InvoicePreviewResponse } from './dto/invoice-preview.response';
import type { InvoicePreview } from './invoice-preview';

/**
 * The preview in the API's shape: money as decimal strings with the currency's minor units, prices
 * as the plan states them, a band's amount exact (only the line's total is rounded), rates and
 * quantities as plain decimals.
 */
export function presentPreview(preview: InvoicePreview): InvoicePreviewResponse {
  const currency = preview.plan.currency;
  const money = (amount: Big) => formatAmount(amount, currency);
  return {
    object: 'invoice_preview',
    plan_id: preview.plan.id,
    plan_code: preview.plan.code,
    customer_id: preview.customer_id,
    currency,
    tax_behavior: preview.plan.taxBehavior,
    period_start: preview.period_start,
    period_end: preview.period_end,
    lines: preview.lines.map((line) => ({
      code: line.code,
      description: line.description,
      quantity: formatAmount(line.quantity),
      unit_amount: line.unit_amount,
      tiers: line.tiers.map((tier) => ({
        up_to: tier.up_to,
        quantity: formatAmount(tier.quantity),
        unit_amount: tier.unit_amount,
        flat_amount: tier.flat_amount,
        amount: formatExactAmount(tier.amount, currency),
      })),
      amount: money(line.amount),
      amount_excluding_tax: money(line.amount_excluding_tax),
      discount_amount: money(line.discount_amount),
      discounts: line.discounts.map((share) => ({ coupon_id: share.coupon_id, amount: money(share.amount) })),
      tax_amount: money(line.tax_amount),
      tax_rate: formatAmount(line.tax_rate),
      tax_code: line.tax_code,
      taxability_reason: line.taxability_reason,
      price_version: line.price_version,
      period_start: line.period_start,
      period_end: line.period_end,
      total: money(line.total),
    })),
    subtotal: money(preview.subtotal),
    discount: money(preview.discount),
    tax: money(preview.tax),
    total: money(preview.total),
    discounts: preview.discounts.map((applied) => ({ coupon_id: applied.coupon_id, level: applied.level, amount: money(applied.amount) })),
    tax_breakdown: preview.tax_breakdown.map((entry) => ({
      jurisdiction: entry.jurisdiction,
      country: entry.country,
      region: entry.region,
      tax_type: entry.tax_type,
      rate: formatAmount(entry.rate),
      taxability_reason: entry.taxability_reason,
      taxable_amount: money(entry.taxable_amount),
      tax_amount: money(entry.tax_amount),
    })),
    tax_status: preview.tax_table_version === null ? 'requires_origin' : 'complete',
    tax_table_version: preview.tax_table_version,
    reverse_charge: preview.reverse_charge,
  };
}
