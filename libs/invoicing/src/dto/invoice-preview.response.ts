import { ApiProperty } from '@nestjs/swagger';
import type { TaxabilityReason } from '@tally/tax/published';
import { DISCOUNT_LEVELS, type DiscountLevel } from '../domain/discounts';

const money = (description?: string) => ({ type: String, example: '49.00', description });

export class LineDiscountResponse {
  @ApiProperty() coupon_id!: string;
  @ApiProperty(money('This discount’s share of the line')) amount!: string;
}

export class PreviewLineTierResponse {
  @ApiProperty({ type: Number, nullable: true, example: 10, description: 'The band’s last unit; null for the unbounded top band' }) up_to!: number | null;
  @ApiProperty({ example: '5', description: 'How much of the line’s quantity the band holds: all of it on a volume line; 0 in the first band for a quantity of 0' }) quantity!: string;
  @ApiProperty({ example: '7.00', description: 'As the pricing states it' }) unit_amount!: string;
  @ApiProperty({ example: '0', description: 'The band’s flat fee as the pricing states it, "0" when it has none' }) flat_amount!: string;
  @ApiProperty({ example: '35.00', description: 'quantity × unit_amount + flat_amount, exact: only the line’s amount is rounded' }) amount!: string;
}

export class PreviewLineResponse {
  @ApiProperty({ example: 'seats', description: 'The component' }) code!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ example: '12' }) quantity!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '12.50',
    description: 'The one price of the line, as the plan states it ("100.00" stays "100.00"): a volume line’s band price, a package line’s price of one package; null for graduated (tiered, usage) lines',
  })
  unit_amount!: string | null;
  @ApiProperty({
    type: () => [PreviewLineTierResponse],
    description: 'Tiered and usage lines: each band reached, in order (the first at least); volume lines: the band the quantity falls in; empty for other models',
  })
  tiers!: PreviewLineTierResponse[];
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
