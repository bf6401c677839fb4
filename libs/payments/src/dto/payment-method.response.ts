import { ApiProperty } from '@nestjs/swagger';
import { AddressResponse } from '@tally/customers';
import { METADATA_SCHEMA, type KnownFields } from '@tally/http';
import type { BankAccountDetails, CardDetails, PaymentMethodType, WalletDetails } from '../domain/payment-method.events';
import type { PaymentMethodResource, PaymentMethodStatus } from '../payment-method.view';
import { PAYMENT_METHOD_TYPES } from './payment-method.dto';

export class CardResponse implements CardDetails {
  @ApiProperty({ example: 'visa' }) brand!: string;
  @ApiProperty({ example: '4242' }) last4!: string;
  @ApiProperty({ type: 'integer', example: 12 }) exp_month!: number;
  @ApiProperty({ type: 'integer', example: 2034 }) exp_year!: number;
  @ApiProperty({ type: String, nullable: true, example: 'US' }) country!: string | null;
  @ApiProperty({ example: 'credit', description: '`credit`, `debit` or `prepaid`' }) funding!: string;
}

export class BankAccountResponse implements BankAccountDetails {
  @ApiProperty({ example: '6789' }) last4!: string;
  @ApiProperty({ example: '110000000' }) routing!: string;
  @ApiProperty({ example: 'Jenny Rosen' }) holder!: string;
  @ApiProperty({ enum: ['new', 'verifying', 'verified', 'verification_failed'] }) status!: BankAccountDetails['status'];
}

export class WalletResponse implements WalletDetails {
  @ApiProperty({ enum: ['paypal', 'apple_pay', 'google_pay'] }) kind!: WalletDetails['kind'];
  @ApiProperty({ type: String, nullable: true, description: 'PayPal only' }) email!: string | null;
}

export class PaymentMethodResponse implements KnownFields<PaymentMethodResource> {
  @ApiProperty({ example: 'pm_01JD…' }) id!: string;
  @ApiProperty({ enum: ['payment_method'] }) object!: 'payment_method';
  @ApiProperty({ type: String, nullable: true, description: 'Null once detached' }) customer_id!: string | null;
  @ApiProperty({ enum: PAYMENT_METHOD_TYPES }) type!: PaymentMethodType;
  @ApiProperty({ enum: ['active', 'expired', 'detached'] satisfies PaymentMethodStatus[] }) status!: PaymentMethodStatus;
  @ApiProperty({ description: 'Whether it is the customer’s default payment method' }) is_default!: boolean;
  @ApiProperty() verified!: boolean;
  @ApiProperty({ type: () => CardResponse, nullable: true, description: 'Set when `type` is `card`' }) card!: CardResponse | null;
  @ApiProperty({ type: () => BankAccountResponse, nullable: true, description: 'Set when `type` is `bank_account`' }) bank_account!: BankAccountResponse | null;
  @ApiProperty({ type: () => WalletResponse, nullable: true, description: 'Set when `type` is `paypal` or `wallet`' }) wallet!: WalletResponse | null;
  @ApiProperty({ type: () => AddressResponse, nullable: true }) billing_address!: AddressResponse | null;
  @ApiProperty(METADATA_SCHEMA) metadata!: Record<string, string>;
  @ApiProperty({ description: 'False in the sandbox' }) livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
