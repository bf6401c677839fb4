import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { METADATA_SCHEMA, type KnownFields } from '@tally/http';
import type { PaymentError, PaymentNextAction, PaymentReason, PaymentStatus } from '../domain/payment.events';
import type { PaymentResource } from '../payment.view';

export const PAYMENT_STATUSES: readonly PaymentStatus[] = ['pending', 'processing', 'requires_action', 'succeeded', 'failed', 'canceled', 'refunded', 'partially_refunded', 'charged_back'];

export class RedirectActionResponse {
  @ApiProperty({ enum: ['redirect_to_url'] }) type!: 'redirect_to_url';
  @ApiProperty({ format: 'uri', example: 'https://billing.example.com/payment-actions/pay_01JD8X5Z3Q4W2R6T8Y0V1B3N5M?tenant=ten_01JD8X2M4N6P8Q0R2S4T6V8W0Y&environment=sandbox&expires=1777716000&signature=Hk2xV8mZ2kP0aL5tYw7Rn1sD4fH6gC9bE3uI8oK2xQ', description: 'Tally’s hosted authentication page for the customer, under its public URL, valid for a day' })
  url!: string;
}

export class ProviderSdkActionResponse {
  @ApiProperty({ enum: ['use_provider_sdk'] }) type!: 'use_provider_sdk';
  @ApiProperty({ example: 'sandbox' }) provider!: string;
  @ApiProperty({ example: 'sbx_py_…_secret_…' }) payment_intent_client_secret!: string;
}

export class PaymentErrorResponse implements PaymentError {
  @ApiProperty({ example: 'card_declined' }) code!: string;
  @ApiProperty({ type: String, nullable: true, example: 'insufficient_funds' }) decline_code!: string | null;
  @ApiProperty({ example: 'Your card has insufficient funds.' }) provider_message!: string;
  @ApiProperty({ example: 'The card was declined. Try another card.' }) user_message!: string;
  @ApiProperty({ description: 'Whether a later retry may succeed (dunning retries only these)' }) is_retriable!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The earliest time a retry may succeed' }) retriable_after!: string | null;
}

export class DisputeResponse {
  @ApiProperty({ enum: ['open', 'won', 'lost'] }) status!: 'open' | 'won' | 'lost';
  @ApiProperty({ example: '49.00' }) amount!: string;
  @ApiProperty({ example: 'fraudulent' }) reason!: string;
  @ApiProperty({ format: 'date-time' }) opened_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) decided_at!: string | null;
}

export class PaymentResponse implements KnownFields<PaymentResource> {
  @ApiProperty({ example: 'pay_01JD…' }) id!: string;
  @ApiProperty({ enum: ['payment'] }) object!: 'payment';
  @ApiProperty({ example: 'inv_01JD…' }) invoice_id!: string;
  @ApiProperty({ example: 'cus_01JD…' }) customer_id!: string;
  @ApiProperty({ type: String, nullable: true }) subscription_id!: string | null;
  @ApiProperty({ example: 'pm_01JD…' }) payment_method_id!: string;
  @ApiProperty({ example: 'sandbox' }) provider!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The provider’s reference, once it answered' }) provider_id!: string | null;
  @ApiProperty({ enum: PAYMENT_STATUSES }) status!: PaymentStatus;
  @ApiProperty({ enum: ['manual', 'automatic', 'retry'], description: 'The pay operation, the invoice’s automatic charge, or a dunning retry' }) reason!: PaymentReason;
  @ApiProperty({ example: '49.00' }) amount!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ type: String, nullable: true }) amount_settled!: string | null;
  @ApiProperty({ type: String, nullable: true }) settlement_currency!: string | null;
  @ApiProperty({ type: String, nullable: true }) fx_rate!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) captured_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) settled_at!: string | null;
  @ApiProperty({
    nullable: true,
    oneOf: [{ $ref: getSchemaPath(RedirectActionResponse) }, { $ref: getSchemaPath(ProviderSdkActionResponse) }],
    description: 'Set while the payment waits for the customer (`requires_action`)',
  })
  next_action!: PaymentNextAction | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true, example: 'https://shop.example/orders/7/paid', description: 'Where the hosted authentication page sends the customer back to, `payment_id` appended; given when paying' })
  return_url!: string | null;
  @ApiProperty({ type: () => PaymentErrorResponse, nullable: true, description: 'Set when the payment failed' }) last_error!: PaymentErrorResponse | null;
  @ApiProperty({ type: () => DisputeResponse, nullable: true, description: 'Set once the payment was charged back' }) dispute!: DisputeResponse | null;
  @ApiProperty({ type: [String], description: 'Ids of its refunds, oldest first: those asked through the API (`rfd_…`), and the automatic refund of a payment its invoice could not take (`re_…`)' }) refunds!: string[];
  @ApiProperty({ example: '20.00', description: 'What its refunds (`rfd_…`) set aside, those still under way included' }) amount_refunded!: string;
  @ApiProperty(METADATA_SCHEMA) metadata!: Record<string, string>;
  @ApiProperty({ description: 'False in the sandbox' }) livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class PaymentActionUrlResponse {
  @ApiProperty({ example: 'pay_01JD…' }) payment_id!: string;
  @ApiProperty({ format: 'uri', example: 'https://billing.example.com/payment-actions/pay_01JD8X5Z3Q4W2R6T8Y0V1B3N5M?tenant=ten_01JD8X2M4N6P8Q0R2S4T6V8W0Y&environment=sandbox&expires=1777716000&signature=Hk2xV8mZ2kP0aL5tYw7Rn1sD4fH6gC9bE3uI8oK2xQ', description: 'The hosted authentication page, under Tally’s public URL' }) url!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}
