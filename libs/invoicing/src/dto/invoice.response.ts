import { ApiProperty } from '@nestjs/swagger';
import { METADATA_SCHEMA, type KnownFields } from '@tally/http';
import { TAX_BEHAVIORS, type TaxBehavior } from '@tally/tax/published';
import {
  BILLING_REASONS,
  CREDIT_NOTE_OUTCOMES,
  CREDIT_NOTE_REASONS,
  CREDIT_NOTE_RESOLUTIONS,
  type BillingReason,
  type CreditNoteOutcome,
  type CreditNoteReason,
  type CreditNoteResolution,
  type InvoiceStatus,
  type TaxBreakdownData,
} from '../domain/invoice.events';
import type { CreditNoteResource, InvoiceLineResource, InvoiceResource } from '../invoice.view';
import { AppliedDiscountResponse } from './invoice-preview.response';

const money = (description?: string) => ({ type: String, example: '49.00', description: description ?? 'A decimal string in the currency’s minor units' });
export const INVOICE_STATUSES: readonly InvoiceStatus[] = ['draft', 'open', 'partially_paid', 'paid', 'void', 'uncollectible'];

export class InvoiceLineResponse implements InvoiceLineResource {
  @ApiProperty({ example: 'il_01JD…' }) id!: string;
  @ApiProperty({ enum: ['line_item'] }) object!: 'line_item';
  @ApiProperty({ type: String, nullable: true, description: 'The plan component’s code; null for a line added by hand' }) code!: string | null;
  @ApiProperty() description!: string;
  @ApiProperty({ example: '2' }) quantity!: string;
  @ApiProperty({ type: String, nullable: true, example: '12.50', description: 'null for a line priced by bands' }) unit_amount!: string | null;
  @ApiProperty(money('Rounded half-even to the currency, before discounts and (exclusive) tax')) amount!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) period_start!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) period_end!: string | null;
  @ApiProperty() proration!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The plan’s price-book version the line was priced with' }) price_version!: number | null;
  @ApiProperty(money()) discount_amount!: string;
  @ApiProperty(money()) tax_amount!: string;
  @ApiProperty({ example: '19', description: 'Percent' }) tax_rate!: string;
  @ApiProperty(METADATA_SCHEMA) metadata!: Record<string, string>;
}

export class CreditNoteLineResponse {
  @ApiProperty() line_id!: string;
  @ApiProperty(money()) amount!: string;
  @ApiProperty({ ...money(), description: 'The tax in `amount`, at the line’s own rate' }) tax_amount!: string;
}

export class CreditNoteOutcomeResponse implements CreditNoteOutcome {
  @ApiProperty({ enum: [...CREDIT_NOTE_OUTCOMES, 'pending_manual'], description: '`pending_manual`: its refund failed on every attempt; an operator resolves it' })
  kind!: CreditNoteOutcome['kind'];
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'], nullable: true, description: 'The refund’s status, for `refund` (and `pending_manual`: `failed`)' })
  refund_status!: CreditNoteOutcome['refund_status'];
}

export class CreditNoteResponse implements CreditNoteResource {
  @ApiProperty({ example: 'cn_01JD…' }) id!: string;
  @ApiProperty({ enum: ['credit_note'] }) object!: 'credit_note';
  @ApiProperty({ example: 'K7Q2M9XD-CN-000042', description: 'From the tenant’s gap-free credit-note sequence (`<invoice number>-CN-01` on credit notes issued before it existed)' }) number!: string;
  @ApiProperty(money()) amount!: string;
  @ApiProperty({ enum: CREDIT_NOTE_REASONS }) reason!: CreditNoteReason;
  @ApiProperty({ type: String, nullable: true }) memo!: string | null;
  @ApiProperty({ example: 'inv_01JD…' }) invoice_id!: string;
  @ApiProperty({ example: 'cus_01JD…' }) customer_id!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ type: () => [CreditNoteLineResponse] }) lines!: CreditNoteLineResponse[];
  @ApiProperty(money()) tax_amount!: string;
  @ApiProperty({ enum: ['pre_payment', 'post_payment'], description: '`pre_payment`: it lowered what was due; `post_payment`: it returns what was paid' }) type!: 'pre_payment' | 'post_payment';
  @ApiProperty({ type: () => CreditNoteOutcomeResponse }) outcome!: CreditNoteOutcomeResponse;
  @ApiProperty({ type: String, nullable: true, example: 'rfd_01JD…' }) refund_id!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'pay_01JD…' }) payment_id!: string | null;
  @ApiProperty({ enum: CREDIT_NOTE_RESOLUTIONS, nullable: true }) resolution!: CreditNoteResolution | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true, description: 'A signed, short-lived link to the PDF, under Tally’s public URL; null in the event log and in webhooks (see GET /v1/credit-notes/{id}/pdf)' }) pdf_url!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class InvoiceTaxBreakdownResponse implements TaxBreakdownData {
  @ApiProperty({ example: 'DE' }) jurisdiction!: string;
  @ApiProperty() country!: string;
  @ApiProperty({ type: String, nullable: true }) region!: string | null;
  @ApiProperty({ example: 'vat' }) tax_type!: string;
  @ApiProperty({ example: '19' }) rate!: string;
  @ApiProperty({ enum: ['standard_rated', 'reduced_rated', 'exempt', 'reverse_charge', 'not_collecting'] }) taxability_reason!: string;
  @ApiProperty(money()) taxable_amount!: string;
  @ApiProperty(money()) tax_amount!: string;
}

const nullable = { nullable: true, enum: [null], type: String, example: null, description: 'Null until FX is supported' };

export class InvoiceResponse implements KnownFields<InvoiceResource> {
  @ApiProperty({ example: 'inv_01JD…' }) id!: string;
  @ApiProperty({ enum: ['invoice'] }) object!: 'invoice';
  @ApiProperty({ type: String, nullable: true, example: 'K7Q2M9XD-000042', description: 'Assigned at finalisation from the tenant’s gap-free sequence' }) number!: string | null;
  @ApiProperty() customer_id!: string;
  @ApiProperty({ type: String, nullable: true }) subscription_id!: string | null;
  @ApiProperty({ enum: BILLING_REASONS }) billing_reason!: BillingReason;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ example: 'EUR', description: 'Equals currency' }) presentment_currency!: string;
  @ApiProperty({ example: 'EUR', description: 'Equals currency' }) settlement_currency!: string;
  @ApiProperty(nullable) fx_rate!: null;
  @ApiProperty(nullable) fx_rate_source!: null;
  @ApiProperty(nullable) fx_rate_locked_at!: null;
  @ApiProperty({ enum: INVOICE_STATUSES }) status!: InvoiceStatus;
  @ApiProperty() auto_charge!: boolean;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ enum: TAX_BEHAVIORS }) tax_behavior!: TaxBehavior;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) period_start!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) period_end!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was finalised' }) issued_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) due_at!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'On a draft without a due date: days after finalisation' }) days_until_due!: number | null;
  @ApiProperty({ type: () => [InvoiceLineResponse] }) lines!: InvoiceLineResponse[];
  @ApiProperty(money('Without tax, before discounts')) subtotal!: string;
  @ApiProperty(money()) discount!: string;
  @ApiProperty(money('Always present')) tax!: string;
  @ApiProperty(money('subtotal − discount + tax')) total!: string;
  @ApiProperty(money()) amount_paid!: string;
  @ApiProperty(money('total − amount_paid − credit notes issued before payment')) amount_due!: string;
  @ApiProperty({ type: () => [InvoiceTaxBreakdownResponse] }) tax_breakdown!: InvoiceTaxBreakdownResponse[];
  @ApiProperty({ type: () => [AppliedDiscountResponse] }) discounts!: AppliedDiscountResponse[];
  @ApiProperty({ type: [String], description: 'Payment ids' }) payments!: string[];
  @ApiProperty({ type: () => [CreditNoteResponse] }) credit_notes!: CreditNoteResponse[];
  @ApiProperty({ type: String, format: 'uri', nullable: true, description: 'A signed, short-lived link to the PDF, under Tally’s public URL; null on drafts, in the event log and in webhooks (see GET /v1/invoices/{id}/pdf)' }) pdf_url!: string | null;
  @ApiProperty(METADATA_SCHEMA) metadata!: Record<string, string>;
  @ApiProperty({ description: 'False in the sandbox' }) livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
