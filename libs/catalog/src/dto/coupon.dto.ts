import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsOptional, IsString, Matches, MaxLength, Min, ValidateNested } from 'class-validator';
import { IsKeyedObject, IsOmittable, IsTimestamp } from '@tally/platform';
import type { CouponDuration } from '../domain/coupon.events';
import { COMPONENT_CODE } from './plan.dto';

/** Letters, digits, `-` and `_`, case kept (`SPRING25`); never `cpn_…`, so it cannot pass for an id. */
export const COUPON_CODE = /^(?!cpn_)[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** The same without the look-ahead, for the OpenAPI document (generators and fuzzers rarely support one). */
const COUPON_CODE_DOCUMENTED = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const DURATIONS: readonly CouponDuration[] = ['once', 'repeating', 'forever'];

export class CouponRestrictionDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: 50, description: 'Component codes the coupon discounts; other lines are not discounted' })
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(50) @IsString({ each: true }) @Matches(COMPONENT_CODE, { each: true, message: 'each component code is a slug' })
  components!: string[];
}

export class CreateCouponDto {
  @ApiProperty({ pattern: COUPON_CODE_DOCUMENTED.source, example: 'SPRING25', description: 'Unique per tenant and environment; usable in paths in place of the id; never starts with `cpn_`' })
  @IsString() @Matches(COUPON_CODE, { message: 'code is letters, digits, - and _ (at most 64), not starting with cpn_' }) code!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional() @IsString() @MaxLength(200) name?: string | null;

  @ApiPropertyOptional({ type: String, example: '25', description: 'Percent off, above 0 and at most 100, at most 2 decimals; or use amount_off' })
  @IsOmittable() @IsString() percent_off?: string;

  @ApiPropertyOptional({ type: String, example: '5.00', description: 'A fixed amount off, with `currency`: a decimal string in major units ("5.00" EUR, "500" JPY), whole minor units of the currency' })
  @IsOmittable() @IsString() amount_off?: string;

  @ApiPropertyOptional({ type: String, example: 'EUR', description: 'The currency of amount_off' })
  @IsOmittable() @IsString() currency?: string;

  @ApiProperty({ enum: DURATIONS, description: 'once: the first invoice; repeating: duration_in_periods invoices; forever' })
  @IsIn(DURATIONS) duration!: CouponDuration;

  @ApiPropertyOptional({ minimum: 1, description: 'Required for repeating coupons' })
  @IsOmittable() @IsInt() @Min(1) duration_in_periods?: number;

  @ApiPropertyOptional({ minimum: 1 })
  @IsOmittable() @IsInt() @Min(1) max_redemptions?: number;

  @ApiPropertyOptional({ format: 'date-time', description: 'The last moment the coupon can be redeemed' })
  @IsOmittable() @IsTimestamp() redeem_by?: string;

  @ApiPropertyOptional({ type: () => CouponRestrictionDto })
  @IsOmittable() @ValidateNested() @Type(() => CouponRestrictionDto) applies_to?: CouponRestrictionDto;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}

export class UpdateCouponDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional() @IsString() @MaxLength(200) name?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'Merged: an empty string removes a key' })
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}
