import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { IsKeyedObject, IsOmittable, IsTimestamp, keyedMapSchema, METADATA_SCHEMA, TIMESTAMP_SCHEMA } from '@tally/http';
import { METER, METER_MAX_LENGTH } from '@tally/catalog/published';
import { MAX_TRIAL_DAYS, type PaymentBehavior } from '../domain/subscription.decider';
import type { PauseBehavior, ProrationBehavior } from '../domain/subscription.events';

const PAYMENT_BEHAVIORS: readonly PaymentBehavior[] = ['allow_incomplete', 'default_incomplete'];
const METER_NAME = { type: 'string' as const, pattern: METER.source, maxLength: METER_MAX_LENGTH, example: 'seats' };
const QUANTITY = { type: 'integer' as const, minimum: 0, maximum: Number.MAX_SAFE_INTEGER };
export const PAUSE_BEHAVIORS: readonly PauseBehavior[] = ['void_invoices', 'mark_uncollectible', 'keep_as_draft'];
export const PRORATION_BEHAVIORS: readonly ProrationBehavior[] = ['create_prorations', 'none', 'always_invoice'];
/** On create only a first, shorter period before the anchor is prorated: now or not at all. */
const CREATE_PRORATION_BEHAVIORS = ['create_prorations', 'none'] as const;
/** The most periods a commitment may run: ten years of monthly periods. */
export const MAX_COMMITMENT_PERIODS = 120;

export class CommitmentDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_COMMITMENT_PERIODS, example: 12, description: 'Paid periods from activation' })
  @IsInt() @Min(1) @Max(MAX_COMMITMENT_PERIODS) periods!: number;

  @ApiProperty({ enum: ['auto', 'none'], example: 'auto', description: '`auto`: a new term of the same length starts at the end; `none`: the subscription ends (`ended`)' })
  @IsIn(['auto', 'none']) renewal!: 'auto' | 'none';
}

export class CreateSubscriptionDto {
  @ApiProperty({ pattern: '^cus_[0-9A-Za-z]+$', example: 'cus_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' })
  @IsString() @Matches(/^cus_[0-9A-Za-z]+$/, { message: 'customer_id is a customer id (cus_…)' }) customer_id!: string;

  @ApiProperty({ minLength: 1, maxLength: 64, example: 'pro-monthly', description: 'The plan’s code or id' })
  @IsString() @IsNotEmpty() @MaxLength(64) plan_code!: string;

  @ApiPropertyOptional({ type: String, nullable: true, pattern: '^pm_[0-9A-Za-z]+$', example: 'pm_01JD8X5Z3Q4W2R6T8Y0V1B3N5M', description: 'Overrides the customer’s default payment method' })
  @IsOptional() @IsString() @Matches(/^pm_[0-9A-Za-z]+$/, { message: 'default_payment_method_id is a payment method id (pm_…)' }) default_payment_method_id?: string | null;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_TRIAL_DAYS, example: 14, description: 'Overrides the plan’s trial; 0 disables it' })
  @IsOmittable() @IsInt() @Min(0) @Max(MAX_TRIAL_DAYS) trial_days?: number;

  @ApiPropertyOptional({ ...TIMESTAMP_SCHEMA, description: 'Pins renewals to this moment: now or later, and at most one interval after the start (now, or the trial’s end); default: the activation. A later anchor makes a first, shorter period up to it' })
  @IsOmittable() @IsTimestamp() billing_cycle_anchor?: string;

  @ApiPropertyOptional({
    enum: CREATE_PRORATION_BEHAVIORS,
    default: 'create_prorations',
    description: 'How a first period shorter than the cycle’s (up to `billing_cycle_anchor`) is billed: `create_prorations` charges its share of a whole period (Stripe’s default), `none` the whole period’s price',
  })
  @IsOmittable() @IsIn(CREATE_PRORATION_BEHAVIORS) proration_behavior?: (typeof CREATE_PRORATION_BEHAVIORS)[number];

  @ApiPropertyOptional({
    enum: PAYMENT_BEHAVIORS,
    default: 'allow_incomplete',
    example: 'default_incomplete',
    description: '`default_incomplete` (without a trial): the subscription is `pending_activation` until its first invoice is paid, and `incomplete_expired` if that takes more than 23 hours (Stripe’s option); `allow_incomplete`: active at once',
  })
  @IsOmittable() @IsIn(PAYMENT_BEHAVIORS) payment_behavior?: PaymentBehavior;

  @ApiPropertyOptional(keyedMapSchema(METER_NAME, QUANTITY, { example: { seats: 5 }, description: 'Initial quantities by meter of the plan’s licensed components; a component without one counts 1' }))
  @IsOmittable() @IsKeyedObject() quantities?: Record<string, number>;

  @ApiPropertyOptional({ type: 'array', items: { type: 'string', minLength: 1, maxLength: 64 }, maxItems: 10, uniqueItems: true, example: ['SPRING25'], description: 'Coupon codes or ids, discounting the subscription’s invoices for their duration' })
  @IsOmittable() @IsArray() @ArrayMaxSize(10) @IsString({ each: true }) @IsNotEmpty({ each: true }) @MaxLength(64, { each: true }) coupons?: string[];

  @ApiPropertyOptional({ type: () => CommitmentDto, nullable: true, description: 'A minimum term; see `commitment_end_at`' })
  @IsOptional() @ValidateNested() @Type(() => CommitmentDto) commitment?: CommitmentDto | null;

  @ApiPropertyOptional(METADATA_SCHEMA)
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}

export class UpdateSubscriptionDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 64, example: 'premium-monthly', description: 'A plan in the same currency and with the same interval' })
  @IsOmittable() @IsString() @IsNotEmpty() @MaxLength(64) plan_code?: string;

  @ApiPropertyOptional({ enum: PRORATION_BEHAVIORS, default: 'create_prorations', description: 'How a plan change is billed: prorated on the next invoice, at the next period boundary, or invoiced at once' })
  @IsOmittable() @IsIn(PRORATION_BEHAVIORS) proration_behavior?: ProrationBehavior;

  @ApiPropertyOptional({ type: String, nullable: true, pattern: '^pm_[0-9A-Za-z]+$', example: 'pm_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' })
  @IsOptional() @IsString() @Matches(/^pm_[0-9A-Za-z]+$/, { message: 'default_payment_method_id is a payment method id (pm_…)' }) default_payment_method_id?: string | null;

  @ApiPropertyOptional(METADATA_SCHEMA)
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}

export class ChangeQuantityDto {
  @ApiProperty(METER_NAME)
  @IsString() @Matches(METER, { message: 'meter is a meter name' }) @MaxLength(METER_MAX_LENGTH) meter!: string;

  @ApiProperty({ ...QUANTITY, example: 7 })
  @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) quantity!: number;

  @ApiPropertyOptional({ enum: ['now', 'next_period'], default: 'now', description: '`now` prorates on the next invoice; `next_period` schedules the change (`subscription.quantity_scheduled`)' })
  @IsOmittable() @IsIn(['now', 'next_period']) effective_at?: 'now' | 'next_period';
}

export class PauseSubscriptionDto {
  @ApiPropertyOptional({ ...TIMESTAMP_SCHEMA, nullable: true, description: 'When it resumes by itself; null: only a manual resume' })
  @IsOptional() @IsTimestamp() until?: string | null;

  @ApiProperty({ enum: PAUSE_BEHAVIORS, example: 'void_invoices', description: 'What happens to the invoices of the periods that close during the pause' })
  @IsIn(PAUSE_BEHAVIORS) behavior!: PauseBehavior;
}

export class CancelSubscriptionDto {
  @ApiPropertyOptional({ enum: ['now', 'period_end'], default: 'now', description: '`now` credits the unused time on a final invoice; `period_end` cancels when the period closes' })
  @IsOmittable() @IsIn(['now', 'period_end']) at?: 'now' | 'period_end';

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, example: 'too_expensive', description: 'Why, free-form' })
  @IsOptional() @IsString() @MaxLength(500) reason?: string | null;
}
