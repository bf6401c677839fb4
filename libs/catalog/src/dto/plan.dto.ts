import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, Min, ValidateNested } from 'class-validator';
import { ApiSchemaRules, CURRENCY_CODE_SCHEMA, IsKeyedObject, IsOmittable, IsTimestamp, METADATA_SCHEMA, TIMESTAMP_SCHEMA } from '@tally/http';
import { TAX_BEHAVIORS, TAX_CODES, type TaxBehavior, type TaxCode } from '@tally/tax/published';
import type { DunningFinalAction, PlanInterval } from '../domain/plan.events';
import type { PlanStatus } from '../domain/plan.decider';
import { MAX_INTERVAL_COUNT } from '../domain/plan-fields';
import { PRICING_SCHEMA } from './pricing.schema';

/** Lower-case letters, digits, `-` and `_`; a plan code never starts with `plan_`, so it cannot pass for an id (the OpenAPI document shows SLUG and says so). */
export const PLAN_CODE = /^(?!plan_)[a-z0-9][a-z0-9_-]{0,63}$/;
export const COMPONENT_CODE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export const INTERVALS: readonly PlanInterval[] = ['day', 'week', 'month', 'year'];
const FINAL_ACTIONS: readonly DunningFinalAction[] = ['cancel_subscription', 'mark_uncollectible', 'leave_past_due'];
export const PLAN_STATUSES: readonly PlanStatus[] = ['active', 'archived', 'deleted'];

/** The fields fixed at creation, documented once for the creation and once for the update that may repeat them. */
const FIXED = {
  code: { pattern: SLUG.source, example: 'pro-monthly', description: 'Unique per tenant and environment; usable in paths in place of the id; never starts with `plan_`' },
  product_code: { pattern: SLUG.source, example: 'pro' },
  currency: { ...CURRENCY_CODE_SCHEMA, description: 'Uppercase ISO 4217' },
  interval: { enum: INTERVALS, example: 'month' },
  interval_count: {
    type: 'integer',
    minimum: 1,
    maximum: Math.max(...Object.values(MAX_INTERVAL_COUNT)),
    example: 1,
    description: `Periods of \`interval\` per billing period; a period is at most a year (${INTERVALS.map((interval) => `${MAX_INTERVAL_COUNT[interval]} ${interval}s`).join(', ')})`,
  },
} as const;

export class DunningPolicyDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'integer', minimum: 1, maximum: 60 },
    maxItems: 8,
    uniqueItems: true,
    example: [3, 5, 7],
    description: 'Days after the first failure on which to retry, strictly ascending; none: the final action follows the first failure',
  })
  @IsArray() @ArrayMaxSize(8) @IsInt({ each: true }) @Min(1, { each: true }) @Max(60, { each: true })
  retry_days!: number[];

  @ApiProperty({ enum: FINAL_ACTIONS, description: 'What happens when the last retry fails' })
  @IsIn(FINAL_ACTIONS) final_action!: DunningFinalAction;

  @ApiPropertyOptional({ default: true, example: true, description: 'A failure’s `retriable_after` from the provider replaces the fixed day; false keeps the fixed days (never before `retriable_after`)' })
  @IsOmittable() @IsBoolean() use_provider_hints?: boolean;
}

export class ComponentDto {
  @ApiProperty({ pattern: COMPONENT_CODE.source, example: 'seats', description: 'Unique within the plan' })
  @IsString() @Matches(COMPONENT_CODE, { message: 'code is a slug: lower-case letters, digits, - and _' }) code!: string;

  @ApiProperty(PRICING_SCHEMA)
  @IsObject() pricing!: Record<string, unknown>;

  @ApiPropertyOptional({ enum: TAX_CODES, nullable: true, description: 'Overrides the standard tax treatment' })
  @IsOptional() @IsIn(TAX_CODES) tax_code?: TaxCode | null;
}

export class AddComponentDto extends ComponentDto {
  @ApiPropertyOptional({ ...TIMESTAMP_SCHEMA, description: 'Price periods that start at or after this moment, not in the past; default now (the next period)' })
  @IsOmittable() @IsTimestamp() effective_at?: string;
}

export class ChangeComponentDto {
  @ApiProperty(PRICING_SCHEMA)
  @IsObject() pricing!: Record<string, unknown>;

  @ApiPropertyOptional({ enum: TAX_CODES, nullable: true, description: 'Omitted: unchanged' })
  @IsOptional() @IsIn(TAX_CODES) tax_code?: TaxCode | null;

  @ApiPropertyOptional({ ...TIMESTAMP_SCHEMA, description: 'Price periods that start at or after this moment, not in the past; default now (the next period)' })
  @IsOmittable() @IsTimestamp() effective_at?: string;
}

class MutablePlanFieldsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 730, example: 14, description: 'Trial length for new subscriptions, in days; 0 for none (default)' })
  @IsOmittable() @IsInt() @Min(0) @Max(730) trial_days?: number;

  @ApiPropertyOptional({ enum: TAX_BEHAVIORS, description: 'Whether prices exclude tax (default) or include it' })
  @IsOmittable() @IsIn(TAX_BEHAVIORS) tax_behavior?: TaxBehavior;

  @ApiPropertyOptional({ type: () => DunningPolicyDto, nullable: true })
  @IsOptional() @ValidateNested() @Type(() => DunningPolicyDto) dunning_policy?: DunningPolicyDto | null;

  @ApiPropertyOptional(METADATA_SCHEMA)
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}

/** checkInterval: at most a year per billing period, so the bound of `interval_count` depends on `interval`. */
@ApiSchemaRules({ anyOf: INTERVALS.map((interval) => ({ properties: { interval: { enum: [interval] }, interval_count: { maximum: MAX_INTERVAL_COUNT[interval] } } })) })
export class CreatePlanDto extends MutablePlanFieldsDto {
  @ApiProperty(FIXED.code)
  @IsString() @Matches(PLAN_CODE, { message: 'code is a slug (lower-case letters, digits, - and _) that does not start with plan_' }) code!: string;

  @ApiProperty(FIXED.product_code)
  @IsString() @Matches(SLUG, { message: 'product_code is a slug: lower-case letters, digits, - and _' }) product_code!: string;

  @ApiProperty(FIXED.currency)
  @IsString() currency!: string;

  @ApiProperty(FIXED.interval)
  @IsIn(INTERVALS) interval!: PlanInterval;

  @ApiPropertyOptional({ ...FIXED.interval_count, description: `${FIXED.interval_count.description}; default 1` })
  @IsOmittable() @IsInt() @Min(1) interval_count?: number;

  @ApiPropertyOptional({ type: () => [ComponentDto], maxItems: 50, description: 'The priced parts of the plan, each with a code unique within it' })
  @IsOmittable() @IsArray() @ArrayMaxSize(50) @ValidateNested({ each: true }) @Type(() => ComponentDto) components?: ComponentDto[];
}

const REPEAT = 'Fixed at creation: may only repeat the current value';

export class UpdatePlanDto extends MutablePlanFieldsDto {
  @ApiPropertyOptional({ enum: PLAN_STATUSES, description: 'active ⇄ archived; deleted only if no subscription ever used the plan' })
  @IsOmittable() @IsIn(PLAN_STATUSES) status?: PlanStatus;

  // Fixed at creation: accepted here only so that a change is refused with `plan.immutable_field`,
  // and `components` with `plan.components_read_only`, which the document leaves out.
  @ApiPropertyOptional({ ...FIXED.code, description: REPEAT }) @Allow() code?: string;
  @ApiPropertyOptional({ ...FIXED.product_code, description: REPEAT }) @Allow() product_code?: string;
  @ApiPropertyOptional({ ...FIXED.currency, description: REPEAT }) @Allow() currency?: string;
  @ApiPropertyOptional({ ...FIXED.interval, description: REPEAT }) @Allow() interval?: PlanInterval;
  @ApiPropertyOptional({ ...FIXED.interval_count, description: REPEAT }) @Allow() interval_count?: number;
  @Allow() components?: unknown;
}
