import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsCountryCode, IsKeyedObject, IsOmittable, IsTimestamp } from '@tally/platform';
import { DISCOUNT_LEVELS, type DiscountLevel } from '../domain/discounts';

export class PreviewTaxIdDto {
  @ApiProperty({ example: 'eu_vat' }) @IsString() @IsNotEmpty() @MaxLength(32) type!: string;
  @ApiProperty({ example: 'FR40303265045' }) @IsString() @IsNotEmpty() @MaxLength(64) value!: string;
}

export class PreviewAddressDto {
  @ApiProperty({ example: 'FR', description: 'ISO 3166-1 alpha-2' })
  @IsString() @IsCountryCode() country!: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'BC', description: 'Where taxes differ by region: the ISO 3166-2 subdivision code without the country' })
  @IsOptional() @IsString() @MaxLength(3) region?: string | null;
}

export class PreviewCustomerDetailsDto {
  @ApiProperty({ type: () => PreviewAddressDto }) @IsDefined() @ValidateNested() @Type(() => PreviewAddressDto) address!: PreviewAddressDto;

  @ApiPropertyOptional({ type: () => [PreviewTaxIdDto], maxItems: 5, description: 'Checked offline (format and check digits)' })
  @IsOmittable() @IsArray() @ArrayMaxSize(5) @ValidateNested({ each: true }) @Type(() => PreviewTaxIdDto) tax_ids?: PreviewTaxIdDto[];
}

export class PreviewDiscountDto {
  @ApiProperty({ example: 'SPRING25', description: 'A coupon code or id' }) @IsString() @IsNotEmpty() coupon!: string;

  @ApiPropertyOptional({ enum: DISCOUNT_LEVELS, default: 'subscription', description: 'Discounts apply subscription-level first, then plan-level, then promotional' })
  @IsOmittable() @IsIn(DISCOUNT_LEVELS) level?: DiscountLevel;
}

export class PreviewInvoiceDto {
  @ApiProperty({ example: 'pro-monthly', description: 'The plan’s code or id' }) @IsString() @IsNotEmpty() plan!: string;

  @ApiPropertyOptional({ pattern: '^cus_[0-9A-Za-z]+$', description: 'Tax follows the customer’s billing address and tax IDs' })
  @IsOmittable() @IsString() @Matches(/^cus_[0-9A-Za-z]+$/, { message: 'customer_id is a customer id (cus_…)' }) customer_id?: string;

  @ApiPropertyOptional({ type: () => PreviewCustomerDetailsDto, description: 'Instead of customer_id: where the customer is, and its tax IDs' })
  @IsOmittable() @ValidateNested() @Type(() => PreviewCustomerDetailsDto) customer_details?: PreviewCustomerDetailsDto;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'integer', minimum: 0 }, example: { seats: 12 }, description: 'Quantities by meter; a component without one counts 1' })
  @IsOmittable() @IsKeyedObject() quantities?: Record<string, number>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, example: { api_calls: '125000' }, description: 'Usage aggregates by meter, decimal strings; none counts 0' })
  @IsOmittable() @IsKeyedObject() usage?: Record<string, string>;

  @ApiPropertyOptional({ type: () => [PreviewDiscountDto], maxItems: 10 })
  @IsOmittable() @IsArray() @ArrayMaxSize(10) @ValidateNested({ each: true }) @Type(() => PreviewDiscountDto) discounts?: PreviewDiscountDto[];

  @ApiPropertyOptional({ format: 'date-time', description: 'Start of the period to price; the prices in force then apply. Default now' })
  @IsOmittable() @IsTimestamp() period_start?: string;
}
