import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, ArrayMaxSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, Min, ValidateNested } from 'class-validator';
import { IsKeyedObject, IsOmittable, IsTimestamp } from '@tally/platform';
import { TAX_BEHAVIORS, TAX_CODES, type TaxBehavior, type TaxCode } from '@tally/tax/published';
import type { DunningFinalAction, PlanInterval } from '../domain/plan.events';
import type { PlanStatus } from '../domain/plan.decider';
import { PRICING_SCHEMA } from './pricing.schema';

/** Lower-case letters, digits, `-` and `_`; a plan code never starts with `plan_`, so it cannot pass for an id (the OpenAPI document shows SLUG and says so). */
export const PLAN_CODE = /^(?!plan_)[a-z0-9][a-z0-9_-]{0,63}$/;
export const COMPONENT_CODE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export const INTERVALS: readonly PlanInterval[] = ['day', 'week', 'month', 'year'];
const FINAL_ACTIONS: readonly DunningFinalAction[] = ['cancel_subscription', 'mark_uncollectible', 'leave_past_due'];
const STATUSES: readonly PlanStatus[] = ['active', 'archived', 'deleted'];

export class DunningPolicyDto {
  @ApiProperty({ type: [Number], minItems: 1, maxItems: 8, example: [3, 5, 7], description: 'Days after the first failure on which to retry, strictly ascending, 1–60' })
  @IsArray() @ArrayMaxSize(8) @IsInt({ each: true }) @Min(1, { each: true }) @Max(60, { each: true })
  retry_days!: number[];

  @ApiProperty({ enum: FINAL_ACTIONS, description: 'What happens when the last retry fails' })
  @IsIn(FINAL_ACTIONS) final_action!: DunningFinalAction;
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
  @ApiPropertyOptional({ format: 'date-time', description: 'Price periods that start at or after this moment; default now (the next period)' })
  @IsOmittable() @IsTimestamp() effective_at?: string;
}

export class ChangeComponentDto {
  @ApiProperty(PRICING_SCHEMA)
  @IsObject() pricing!: Record<string, unknown>;

  @ApiPropertyOptional({ enum: TAX_CODES, nullable: true, description: 'Omitted: unchanged' })
  @IsOptional() @IsIn(TAX_CODES) tax_code?: TaxCode | null;

  @ApiPropertyOptional({ format: 'date-time', description: 'Price periods that start at or after this moment; default now (the next period)' })
  @IsOmittable() @IsTimestamp() effective_at?: string;
}

class MutablePlanFieldsDto {
  @ApiPropertyOptional({ minimum: 0, maximum: 730, description: 'Trial length for new subscriptions' })
  @IsOmittable() @IsInt() @Min(0) @Max(730) trial_days?: number;

  @ApiPropertyOptional({ enum: TAX_BEHAVIORS, description: 'Whether prices exclude tax (default) or include it' })
  @IsOmittable() @IsIn(TAX_BEHAVIORS) tax_behavior?: TaxBehavior;

  @ApiPropertyOptional({ type: () => DunningPolicyDto, nullable: true })
  @IsOptional() @ValidateNested() @Type(() => DunningPolicyDto) dunning_policy?: DunningPolicyDto | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'At most 50 keys; an update merges keys, and an empty string removes one' })
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}

export class CreatePlanDto extends MutablePlanFieldsDto {
  @ApiProperty({ pattern: SLUG.source, example: 'pro-monthly', description: 'Unique per tenant and environment; usable in paths in place of the id; never starts with `plan_`' })
  @IsString() @Matches(PLAN_CODE, { message: 'code is a slug (lower-case letters, digits, - and _) that does not start with plan_' }) code!: string;

  @ApiProperty({ pattern: SLUG.source, example: 'pro' })
  @IsString() @Matches(SLUG, { message: 'product_code is a slug: lower-case letters, digits, - and _' }) product_code!: string;

  @ApiProperty({ example: 'EUR', description: 'Uppercase ISO 4217' })
  @IsString() currency!: string;

  @ApiProperty({ enum: INTERVALS })
  @IsIn(INTERVALS) interval!: PlanInterval;

  @ApiProperty({ minimum: 1, example: 1, description: 'Periods of `interval` per billing period; a period is at most a year' })
  @IsInt() @Min(1) interval_count!: number;

  @ApiPropertyOptional({ type: () => [ComponentDto], maxItems: 50 })
  @IsOmittable() @IsArray() @ArrayMaxSize(50) @ValidateNested({ each: true }) @Type(() => ComponentDto) components?: ComponentDto[];
}

export class UpdatePlanDto extends MutablePlanFieldsDto {
  @ApiPropertyOptional({ enum: STATUSES, description: 'active ⇄ archived; deleted only if no subscription ever used the plan' })
  @IsOmittable() @IsIn(STATUSES) status?: PlanStatus;

  // Fixed at creation: accepted here only so that a change is refused with `plan.immutable_field`.
  @ApiPropertyOptional({ description: 'Immutable: may repeat the current value' }) @Allow() code?: string;
  @ApiPropertyOptional({ description: 'Immutable: may repeat the current value' }) @Allow() product_code?: string;
  @ApiPropertyOptional({ description: 'Immutable: may repeat the current value' }) @Allow() currency?: string;
  @ApiPropertyOptional({ description: 'Immutable: may repeat the current value' }) @Allow() interval?: PlanInterval;
  @ApiPropertyOptional({ description: 'Immutable: may repeat the current value' }) @Allow() interval_count?: number;
  @ApiPropertyOptional({ description: 'Read-only here: components change through /v1/plans/{plan}/components' }) @Allow() components?: unknown;
}
