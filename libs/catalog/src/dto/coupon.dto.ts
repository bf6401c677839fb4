import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsOptional, IsString, Matches, MaxLength, Min, ValidateNested } from 'class-validator';
import { AMOUNT_FRACTION_DIGITS, currencyCodes, minorUnits } from '@tally/kernel';
import { ABSENT, amountPattern, ApiSchemaRules, CURRENCY_CODE_SCHEMA, IsKeyedObject, IsOmittable, IsTimestamp, METADATA_SCHEMA, POSITIVE_AMOUNT, TIMESTAMP_SCHEMA } from '@tally/http';
import type { CouponDuration } from '../domain/coupon.events';
import { PERCENT_OFF_PATTERN } from '../domain/coupon-terms';
import { COMPONENT_CODE } from './plan.dto';

/** Letters, digits, `-` and `_`, case kept (`SPRING25`); never `cpn_…`, so it cannot pass for an id. */
export const COUPON_CODE = /^(?!cpn_)[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** The same without the look-ahead, for the OpenAPI document (generators and fuzzers rarely support one). */
const COUPON_CODE_DOCUMENTED = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const DURATIONS: readonly CouponDuration[] = ['once', 'repeating', 'forever'];

export class CouponRestrictionDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', pattern: COMPONENT_CODE.source },
    minItems: 1,
    maxItems: 50,
    uniqueItems: true,
    example: ['seats'],
    description: 'Component codes the coupon discounts, each once; other lines are not discounted',
  })
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(50) @IsString({ each: true }) @Matches(COMPONENT_CODE, { each: true, message: 'each component code is a slug' })
  components!: string[];
}

/** `amount_off` in whole minor units of `currency`: one branch per number of minor units (JPY 0, EUR 2, KWD 3, CLF 4). */
function wholeMinorUnits(): SchemaObject {
  const byDigits = new Map<number, string[]>();
  for (const currency of currencyCodes()) byDigits.set(minorUnits(currency), [...(byDigits.get(minorUnits(currency)) ?? []), currency]);
  const branches = [...byDigits].map(([digits, currencies]) => ({ properties: { currency: { enum: currencies }, amount_off: { pattern: amountPattern(digits) } } }));
  return { anyOf: [{ properties: { amount_off: ABSENT } }, ...branches] };
}

/** checkCouponTerms: a percentage, or an amount payable in its currency; `duration_in_periods` exactly for repeating coupons. */
@ApiSchemaRules({
  allOf: [
    wholeMinorUnits(),
    {
      oneOf: [
        { required: ['percent_off'], properties: { amount_off: ABSENT, currency: ABSENT } },
        { required: ['amount_off', 'currency'], properties: { percent_off: ABSENT } },
      ],
    },
    {
      oneOf: [
        { properties: { duration: { enum: ['repeating'] } }, required: ['duration', 'duration_in_periods'] },
        { properties: { duration: { enum: ['once', 'forever'] }, duration_in_periods: ABSENT }, required: ['duration'] },
      ],
    },
  ],
})
export class CreateCouponDto {
  @ApiProperty({ pattern: COUPON_CODE_DOCUMENTED.source, example: 'SPRING25', description: 'Unique per tenant and environment; usable in paths in place of the id; never starts with `cpn_`' })
  @IsString() @Matches(COUPON_CODE, { message: 'code is letters, digits, - and _ (at most 64), not starting with cpn_' }) code!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'Spring sale' })
  @IsOptional() @IsString() @MaxLength(200) name?: string | null;

  @ApiPropertyOptional({ type: String, pattern: PERCENT_OFF_PATTERN.source, example: '25', description: 'Percent off, above 0 and at most 100, at most 2 decimals; or use amount_off' })
  @IsOmittable() @IsString() percent_off?: string;

  @ApiPropertyOptional({
    type: String,
    pattern: amountPattern(AMOUNT_FRACTION_DIGITS),
    ...POSITIVE_AMOUNT,
    example: '5.00',
    description: 'A fixed amount off, with `currency`: a decimal string above 0 in major units ("5.00" EUR, "500" JPY), whole minor units of the currency',
  })
  @IsOmittable() @IsString() amount_off?: string;

  @ApiPropertyOptional({ ...CURRENCY_CODE_SCHEMA, description: 'The currency of amount_off' })
  @IsOmittable() @IsString() currency?: string;

  @ApiProperty({ enum: DURATIONS, example: 'repeating', description: 'once: the first invoice; repeating: duration_in_periods invoices; forever' })
  @IsIn(DURATIONS) duration!: CouponDuration;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, example: 3, description: 'For repeating coupons only, and required for them' })
  @IsOmittable() @IsInt() @Min(1) duration_in_periods?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, example: 100, description: 'How many subscriptions may redeem it' })
  @IsOmittable() @IsInt() @Min(1) max_redemptions?: number;

  @ApiPropertyOptional({ ...TIMESTAMP_SCHEMA, example: '2026-06-30T23:59:59Z', description: 'The last moment the coupon can be redeemed; in the future' })
  @IsOmittable() @IsTimestamp() redeem_by?: string;

  @ApiPropertyOptional({ type: () => CouponRestrictionDto })
  @IsOmittable() @ValidateNested() @Type(() => CouponRestrictionDto) applies_to?: CouponRestrictionDto;

  @ApiPropertyOptional(METADATA_SCHEMA)
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}

export class UpdateCouponDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'Spring sale' })
  @IsOptional() @IsString() @MaxLength(200) name?: string | null;

  @ApiPropertyOptional(METADATA_SCHEMA)
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}
