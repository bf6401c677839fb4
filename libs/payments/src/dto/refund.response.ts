import { ApiProperty } from '@nestjs/swagger';
import { METADATA_SCHEMA, type KnownFields } from '@tally/http';
import { REFUND_REASONS, type RefundDestination, type RefundFailure, type RefundReason, type RefundStatus } from '../domain/refund.events';
import type { RefundResource } from '../refund.view';

export const REFUND_STATUSES: readonly RefundStatus[] = ['pending', 'succeeded', 'failed'];

export class RefundFailureResponse implements RefundFailure {
  @ApiProperty({ enum: ['declined', 'ambiguous'], description: '`declined`: the provider said no; `ambiguous`: it may have refunded (an outage, a timeout), so the retry asks under the same idempotency key' })
  kind!: RefundFailure['kind'];
  @ApiProperty({ example: 'refund_declined' }) code!: string;
  @ApiProperty() message!: string;
}

export class RefundResponse implements KnownFields<RefundResource> {
  @ApiProperty({ example: 'rfd_01JD…' }) id!: string;
  @ApiProperty({ enum: ['refund'] }) object!: 'refund';
  @ApiProperty({ example: 'pay_01JD…' }) payment_id!: string;
  @ApiProperty({ example: 'inv_01JD…' }) invoice_id!: string;
  @ApiProperty({ example: 'cus_01JD…' }) customer_id!: string;
  @ApiProperty({ example: 'cn_01JD…', description: 'The credit note it issued against the payment’s invoice' }) credit_note_id!: string;
  @ApiProperty({ example: '20.00' }) amount!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ enum: REFUND_REASONS }) reason!: RefundReason;
  @ApiProperty({ enum: ['original_method', 'wallet'] }) destination!: RefundDestination;
  @ApiProperty({ enum: REFUND_STATUSES, description: '`pending` while attempts are under way, `failed` once all 5 failed (its credit note is then `pending_manual`)' }) status!: RefundStatus;
  @ApiProperty({ type: String, nullable: true, example: 'sbx_re_…' }) provider_refund_id!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'wtx_…' }) wallet_transaction_id!: string | null;
  @ApiProperty({ type: () => RefundFailureResponse, nullable: true, description: 'The last failed attempt’s reason' }) failure_reason!: RefundFailureResponse | null;
  @ApiProperty({ example: 1 }) attempts!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the next attempt is due, while one is' }) next_attempt_at!: string | null;
  @ApiProperty(METADATA_SCHEMA) metadata!: Record<string, string>;
  @ApiProperty({ description: 'False in the sandbox' }) livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
