import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { AMOUNT_FRACTION_DIGITS } from '@tally/kernel';
import { amountPattern, ApiSchemaRules, atMostOneOf, COUNTRY_CODE_SCHEMA, IsCountryCode, IsKeyedObject, IsOmittable, IsTimestamp, keyedMapSchema, TIMESTAMP_SCHEMA } from '@tally/http';
import { METER, METER_MAX_LENGTH } from '@tally/catalog/published';
import { DISCOUNT_LEVELS, type DiscountLevel } from '../domain/discounts';

/** A meter of the plan: only a name of this shape can be one. */
const METER_NAME = { type: 'string', pattern: METER.source, maxLength: METER_MAX_LENGTH, example: 'seats' };

export class PreviewTaxIdDto {
  @ApiProperty({ minLength: 1, maxLength: 32, example: 'eu_vat', description: 'A type other than `eu_vat` counts as an invalid tax ID' })
  @IsString() @IsNotEmpty() @MaxLength(32) type!: string;
  @ApiProperty({ minLength: 1, maxLength: 64, example: 'FR40303265045' })
  @IsString() @IsNotEmpty() @MaxLength(64) value!: string;
}

export class PreviewAddressDto {
  @ApiProperty({ ...COUNTRY_CODE_SCHEMA, example: 'FR', description: 'ISO 3166-1 alpha-2' })
  @IsString() @IsCountryCode() country!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 3, example: 'BC', description: 'Where taxes differ by region: the ISO 3166-2 subdivision code without the country' })
  @IsOptional() @IsString() @MaxLength(3) region?: string | null;
}

export class PreviewCustomerDetailsDto {
  @ApiProperty({ type: () => PreviewAddressDto }) @IsDefined() @ValidateNested() @Type(() => PreviewAddressDto) address!: PreviewAddressDto;

  @ApiPropertyOptional({ type: () => [PreviewTaxIdDto], maxItems: 5, description: 'Checked offline (format and check digits)' })
  @IsOmittable() @IsArray() @ArrayMaxSize(5) @ValidateNested({ each: true }) @Type(() => PreviewTaxIdDto) tax_ids?: PreviewTaxIdDto[];
}

export class PreviewDiscountDto {
  @ApiProperty({ minLength: 1, example: 'SPRING25', description: 'A coupon code or id, each coupon once' }) @IsString() @IsNotEmpty() coupon!: string;

  @ApiPropertyOptional({ enum: DISCOUNT_LEVELS, default: 'subscription', description: 'Discounts apply subscription-level first, then plan-level, then promotional' })
  @IsOmittable() @IsIn(DISCOUNT_LEVELS) level?: DiscountLevel;
}

@ApiSchemaRules({ ...atMostOneOf('customer_id', 'customer_details'), oneOf: [{ required: ['plan_code'] }, { required: ['plan'] }] })
export class PreviewInvoiceDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 64, example: 'pro-monthly', description: 'The plan’s code (or id), as a subscription names it; required unless `plan` is sent' })
  @ValidateIf((dto: PreviewInvoiceDto, value) => value !== undefined || dto.plan === undefined) @IsString() @IsNotEmpty() @MaxLength(64) plan_code?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 64, example: 'pro-monthly', deprecated: true, description: 'The same as `plan_code`, under its earlier name; send one of the two' })
  @IsOmittable() @IsString() @IsNotEmpty() @MaxLength(64) plan?: string;

  @ApiPropertyOptional({ pattern: '^cus_[0-9A-Za-z]+$', example: 'cus_01JD8X5Z3Q4W2R6T8Y0V1B3N5M', description: 'Tax follows the customer’s billing address and tax IDs' })
  @IsOmittable() @IsString() @Matches(/^cus_[0-9A-Za-z]+$/, { message: 'customer_id is a customer id (cus_…)' }) customer_id?: string;

  @ApiPropertyOptional({ type: () => PreviewCustomerDetailsDto, description: 'Instead of customer_id: where the customer is, and its tax IDs' })
  @IsOmittable() @ValidateNested() @Type(() => PreviewCustomerDetailsDto) customer_details?: PreviewCustomerDetailsDto;

  @ApiPropertyOptional(
    keyedMapSchema(METER_NAME, { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }, { example: { seats: 12 }, description: 'Quantities by meter of the plan; a component without one counts 1' }),
  )
  @IsOmittable() @IsKeyedObject() quantities?: Record<string, number>;

  @ApiPropertyOptional(
    keyedMapSchema(METER_NAME, { type: 'string', pattern: amountPattern(AMOUNT_FRACTION_DIGITS) }, { example: { api_calls: '125000' }, description: 'Usage aggregates by meter of the plan, decimal strings; none counts 0' }),
  )
  @IsOmittable() @IsKeyedObject() usage?: Record<string, string>;

  @ApiPropertyOptional({ type: () => [PreviewDiscountDto], maxItems: 10 })
  @IsOmittable() @IsArray() @ArrayMaxSize(10) @ValidateNested({ each: true }) @Type(() => PreviewDiscountDto) discounts?: PreviewDiscountDto[];

  @ApiPropertyOptional({ ...TIMESTAMP_SCHEMA, description: 'Start of the period to price; the prices in force then apply. Default now' })
  @IsOmittable() @IsTimestamp() period_start?: string;
}
