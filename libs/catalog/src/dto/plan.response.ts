import { ApiProperty } from '@nestjs/swagger';
import { METADATA_SCHEMA, type KnownFields } from '@tally/http';
import { TAX_BEHAVIORS, TAX_CODES, type TaxBehavior, type TaxCode } from '@tally/tax/published';
import type { PlanStatus } from '../domain/plan.decider';
import type { DunningFinalAction, DunningPolicy, PlanInterval, PriceVersion } from '../domain/plan.events';
import type { ComponentInForce } from '../domain/price-book';
import type { Pricing } from '../domain/pricing/pricing';
import type { PlanResource } from '../plan.view';
import { INTERVALS } from './plan.dto';
import { PRICING_SCHEMA } from './pricing.schema';

export class DunningPolicyResponse implements DunningPolicy {
  @ApiProperty({ type: [Number] }) retry_days!: number[];
  @ApiProperty({ enum: ['cancel_subscription', 'mark_uncollectible', 'leave_past_due'] }) final_action!: DunningFinalAction;
  @ApiProperty({ description: 'Whether the provider’s `retriable_after` replaces the fixed day' }) use_provider_hints!: boolean;
}

export class ComponentResponse implements ComponentInForce {
  @ApiProperty({ example: 'seats' }) code!: string;
  @ApiProperty(PRICING_SCHEMA) pricing!: Pricing;
  @ApiProperty({ enum: TAX_CODES, nullable: true }) tax_code!: TaxCode | null;
  @ApiProperty({ description: 'The price-book entry in force; invoice lines name it' }) price_version!: number;
  @ApiProperty({ format: 'date-time' }) effective_at!: string;
}

export class PriceVersionResponse implements PriceVersion {
  @ApiProperty() version!: number;
  @ApiProperty() component_code!: string;
  @ApiProperty({ enum: ['added', 'changed', 'removed'] }) change!: PriceVersion['change'];
  @ApiProperty({ ...PRICING_SCHEMA, nullable: true, description: 'null when removed' } as typeof PRICING_SCHEMA) pricing!: Pricing | null;
  @ApiProperty({ enum: TAX_CODES, nullable: true }) tax_code!: TaxCode | null;
  @ApiProperty({ format: 'date-time', description: 'Prices periods that start at or after this moment' }) effective_at!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class PlanResponse implements KnownFields<PlanResource> {
  @ApiProperty({ example: 'plan_01JD…' }) id!: string;
  @ApiProperty({ enum: ['plan'] }) object!: 'plan';
  @ApiProperty({ example: 'pro-monthly' }) code!: string;
  @ApiProperty({ example: 'pro' }) product_code!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ enum: INTERVALS }) interval!: PlanInterval;
  @ApiProperty() interval_count!: number;
  @ApiProperty() trial_days!: number;
  @ApiProperty({ enum: TAX_BEHAVIORS }) tax_behavior!: TaxBehavior;
  @ApiProperty({ type: () => [ComponentResponse], description: 'The components in force now (for a period starting now)' }) components!: ComponentResponse[];
  @ApiProperty({ type: () => [PriceVersionResponse], description: 'The price book: every component change, scheduled ones included' }) price_versions!: PriceVersionResponse[];
  @ApiProperty({ type: () => DunningPolicyResponse, nullable: true }) dunning_policy!: DunningPolicyResponse | null;
  @ApiProperty(METADATA_SCHEMA) metadata!: Record<string, string>;
  @ApiProperty({ enum: ['active', 'archived', 'deleted'] }) status!: PlanStatus;
  @ApiProperty({ description: 'False in the sandbox' }) livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
