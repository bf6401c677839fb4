import { ApiProperty } from '@nestjs/swagger';
import type { TaxabilityReason } from '@tally/tax/domain/tax';
import { DISCOUNT_LEVELS, type DiscountLevel } from '../domain/discounts';

const money = (description?: string) => ({ type: String, example: '49.00', description });

export class LineDiscountResponse {
  @ApiProperty() coupon_id!: string;
  @ApiProperty(money('This discount’s share of the line')) amount!: string;
}

export class PreviewLineResponse {
  @ApiProperty({ example: 'seats', description: 'The component' }) code!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ example: '12' }) quantity!: string;
  @ApiProperty({ type: String, nullable: true, description: 'null for graduated tiers; a package line shows the price of one package' }) unit_amount!: string | null;
  @ApiProperty(money('Priced and rounded on its own; includes tax when the plan’s prices do')) amount!: string;
  @ApiProperty(money()) amount_excluding_tax!: string;
  @ApiProperty(money('Without tax')) discount_amount!: string;
  @ApiProperty({ type: () => [LineDiscountResponse] }) discounts!: LineDiscountResponse[];
  @ApiProperty(money()) tax_amount!: string;
  @ApiProperty({ example: '19', description: 'Percent' }) tax_rate!: string;
  @ApiProperty({ enum: ['standard', 'reduced', 'exempt'] }) tax_code!: string;
  @ApiProperty({ type: String, nullable: true, enum: ['standard_rated', 'reduced_rated', 'exempt', 'reverse_charge', 'not_collecting', null] }) taxability_reason!: TaxabilityReason | null;
  @ApiProperty({ description: 'The price-book entry the line was priced with' }) price_version!: number;
  @ApiProperty({ format: 'date-time' }) period_start!: string;
  @ApiProperty({ format: 'date-time' }) period_end!: string;
  @ApiProperty(money('amount_excluding_tax − discount_amount + tax_amount')) total!: string;
}

export class AppliedDiscountResponse {
  @ApiProperty() coupon_id!: string;
  @ApiProperty({ enum: DISCOUNT_LEVELS }) level!: DiscountLevel;
  @ApiProperty(money('What it took off the prices (tax included when prices include it)')) amount!: string;
}

export class TaxBreakdownResponse {
  @ApiProperty({ example: 'DE' }) jurisdiction!: string;
  @ApiProperty() country!: string;
  @ApiProperty({ type: String, nullable: true }) region!: string | null;
  @ApiProperty({ example: 'vat' }) tax_type!: string;
  @ApiProperty({ example: '19' }) rate!: string;
  @ApiProperty({ enum: ['standard_rated', 'reduced_rated', 'exempt', 'reverse_charge', 'not_collecting'] }) taxability_reason!: TaxabilityReason;
  @ApiProperty(money()) taxable_amount!: string;
  @ApiProperty(money()) tax_amount!: string;
}

export class InvoicePreviewResponse {
  @ApiProperty({ enum: ['invoice_preview'] }) object!: 'invoice_preview';
  @ApiProperty() plan_id!: string;
  @ApiProperty() plan_code!: string;
  @ApiProperty({ type: String, nullable: true }) customer_id!: string | null;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ enum: ['exclusive', 'inclusive'] }) tax_behavior!: string;
  @ApiProperty({ format: 'date-time' }) period_start!: string;
  @ApiProperty({ format: 'date-time' }) period_end!: string;
  @ApiProperty({ type: () => [PreviewLineResponse] }) lines!: PreviewLineResponse[];
  @ApiProperty(money('Sum of the lines without tax, before discounts')) subtotal!: string;
  @ApiProperty(money('Sum of the discounts, without tax')) discount!: string;
  @ApiProperty(money()) tax!: string;
  @ApiProperty(money('subtotal − discount + tax')) total!: string;
  @ApiProperty({ type: () => [AppliedDiscountResponse] }) discounts!: AppliedDiscountResponse[];
  @ApiProperty({ type: () => [TaxBreakdownResponse] }) tax_breakdown!: TaxBreakdownResponse[];
  @ApiProperty({ enum: ['complete', 'requires_origin'], description: 'requires_origin: no tax was calculated, as the tenant set no origin (PATCH /v1/tax/settings)' }) tax_status!: 'complete' | 'requires_origin';
  @ApiProperty({ type: String, nullable: true, description: 'The tax-rate table the tax was calculated with' }) tax_table_version!: string | null;
  @ApiProperty() reverse_charge!: boolean;
}
