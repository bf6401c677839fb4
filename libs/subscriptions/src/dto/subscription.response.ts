import { ApiProperty } from '@nestjs/swagger';
import { keyedMapSchema, METADATA_SCHEMA, type KnownFields } from '@tally/http';
import type { Commitment, PauseBehavior, ProrationItem, SubscriptionRefund, SubscriptionStatus } from '../domain/subscription.events';
import type { SubscriptionResource } from '../subscription.view';
import { MAX_TRIAL_DAYS } from '../domain/subscription.decider';
import { CommitmentDto, PAUSE_BEHAVIORS } from './subscription.dto';

export const SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['pending_activation', 'trialing', 'active', 'past_due', 'paused', 'canceled', 'ended', 'incomplete_expired'];
const QUANTITIES = keyedMapSchema({ type: 'string' }, { type: 'integer', minimum: 0 }, { example: { seats: 5 }, description: 'Quantities by meter of the plan’s licensed components' });
const AMOUNT = { type: String, example: '-14.00', description: 'A decimal string in the subscription’s currency; negative for a credit' };

export class ProrationItemResponse implements ProrationItem {
  @ApiProperty({ example: 'seats' }) code!: string;
  @ApiProperty({ example: 'Unused time on seats' }) description!: string;
  @ApiProperty(AMOUNT) amount!: string;
  @ApiProperty({ format: 'date-time' }) period_start!: string;
  @ApiProperty({ format: 'date-time' }) period_end!: string;
  @ApiProperty({ type: 'integer', description: 'The price-book version the amount was priced with' }) price_version!: number;
  @ApiProperty({ example: 'standard', description: 'The prorated component’s tax code' }) tax_code!: string;
}

const MONEY = (description: string) => ({ type: String, example: '23.80', description });

export class SubscriptionRefundResponse implements SubscriptionRefund {
  @ApiProperty({ example: 'inv_01JD…' }) invoice_id!: string;
  @ApiProperty({ example: 'cn_01JD…' }) credit_note_id!: string;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'The refund that issued the credit note; null for one issued without a refund' }) refund_id!: string | null;
  @ApiProperty(MONEY('What the credit note credited, with tax')) amount!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty(MONEY('What it took off the invoice’s recognition schedule (its revenue share: no tax)')) revenue_reduced!: string;
  @ApiProperty(MONEY('Of it, what had been recognised: reversed by a negative row on the credit note’s day')) recognized_reversed!: string;
  @ApiProperty(MONEY('Of it, what was still deferred: taken off the future rows in proportion')) deferred_reduced!: string;
  @ApiProperty({ format: 'date-time', description: 'When the credit note was issued' }) processed_at!: string;
}

export class PendingUpdateResponse {
  @ApiProperty({ type: String, nullable: true, description: 'The plan from the next period on' }) plan_code!: string | null;
  @ApiProperty(QUANTITIES) quantities!: Record<string, number>;
  @ApiProperty({ format: 'date-time', description: 'The next period boundary' }) effective_at!: string;
}

export class SubscriptionResponse implements KnownFields<SubscriptionResource> {
  @ApiProperty({ example: 'sub_01JD…' }) id!: string;
  @ApiProperty({ enum: ['subscription'] }) object!: 'subscription';
  @ApiProperty({ example: 'cus_01JD…' }) customer_id!: string;
  @ApiProperty({ example: 'pro-monthly' }) plan_code!: string;
  @ApiProperty({ enum: SUBSCRIPTION_STATUSES }) status!: SubscriptionStatus;
  @ApiProperty({ example: 'EUR', description: 'The plan’s; fixed for the subscription’s life' }) currency!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Overrides the customer’s default payment method' }) default_payment_method_id!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) trial_end!: string | null;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_TRIAL_DAYS, example: 14, description: 'The trial that applied, in days: the subscription’s own `trial_days`, else the plan’s; 0 without a trial' })
  trial_days!: number;
  @ApiProperty({ format: 'date-time', description: 'Periods renew from this moment' }) billing_cycle_anchor!: string;
  @ApiProperty({ format: 'date-time' }) current_period_start!: string;
  @ApiProperty({ format: 'date-time' }) current_period_end!: string;
  @ApiProperty(QUANTITIES) quantities!: Record<string, number>;
  @ApiProperty({ type: [String], example: ['SPRING25'] }) coupons!: string[];
  @ApiProperty(METADATA_SCHEMA) metadata!: Record<string, string>;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When a pause ends by itself' }) paused_until!: string | null;
  @ApiProperty({ enum: PAUSE_BEHAVIORS, nullable: true }) pause_behavior!: PauseBehavior | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Set by a cancellation at period end' }) cancel_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) canceled_at!: string | null;
  @ApiProperty({ type: String, nullable: true }) cancellation_reason!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When a commitment without renewal ended it' }) ended_at!: string | null;
  @ApiProperty({ type: () => CommitmentDto, nullable: true }) commitment!: Commitment | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The end of the commitment’s current term' }) commitment_end_at!: string | null;
  @ApiProperty({ type: () => PendingUpdateResponse, nullable: true, description: 'Changes that take effect at the next period boundary' }) pending_update!: PendingUpdateResponse | null;
  @ApiProperty({ type: () => [ProrationItemResponse], description: 'Prorations the next invoice will carry' }) pending_prorations!: ProrationItemResponse[];
  @ApiProperty({ type: String, nullable: true, example: null, description: 'The sandbox test clock the subscription lives on (its customer’s)' }) test_clock!: string | null;
  @ApiProperty({ type: () => SubscriptionRefundResponse, nullable: true, description: 'The last credit note or refund that adjusted the revenue recognition of one of its invoices (`subscription.refund_processed`); null before any' })
  latest_refund!: SubscriptionRefundResponse | null;
  @ApiProperty({ description: 'False in the sandbox' }) livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class UsagePeriodResponse {
  @ApiProperty({ format: 'date-time' }) start!: string;
  @ApiProperty({ format: 'date-time' }) end!: string;
}

export class MeterUsageResponse {
  @ApiProperty({ example: 'api_calls' }) meter!: string;
  @ApiProperty({ example: '125000', description: 'The aggregate the usage component prices, a decimal string' }) quantity!: string;
  @ApiProperty({ type: 'integer', example: 412, description: 'How many usage events made it (each duplicate merged into the first)' }) events!: number;
  @ApiProperty({
    type: 'integer',
    example: 0,
    description: 'How many of them arrived after their own period had closed and count here instead (the `next_period` rule, or a `rebill` that could not be made)',
  })
  late_events!: number;
}

export class UsageSummaryResponse {
  @ApiProperty({ enum: ['usage_summary'] }) object!: 'usage_summary';
  @ApiProperty({ example: 'sub_01JD…' }) subscription_id!: string;
  @ApiProperty({ type: () => UsagePeriodResponse }) period!: UsagePeriodResponse;
  @ApiProperty({ type: () => [MeterUsageResponse], description: 'Every meter of the plan’s usage components, with its aggregate as its component reads it (0 without usage)' }) meters!: MeterUsageResponse[];
}
