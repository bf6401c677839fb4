import { ApiProperty } from '@nestjs/swagger';
import { METADATA_SCHEMA, type KnownFields } from '@tally/http';
import { WALLET_CREDIT_REASONS, WALLET_DEBIT_REASONS, WALLET_SOURCE_TYPES, type AutoTopUp, type WalletSource, type WalletSourceType } from '../domain/wallet.events';
import type { AutoTopUpStatus, WalletResource, WalletTransactionResource } from '../wallet.view';

export class AutoTopUpResponse implements AutoTopUp {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ example: '10.00' }) trigger_at!: string;
  @ApiProperty({ example: '50.00' }) amount!: string;
  @ApiProperty({ example: 'pm_01JD…' }) payment_method_id!: string;
}

class TopUpErrorResponse {
  @ApiProperty({ example: 'card_declined' }) code!: string;
  @ApiProperty({ example: 'Your card was declined.' }) message!: string;
}

export class AutoTopUpStatusResponse implements AutoTopUpStatus {
  @ApiProperty({ enum: ['idle', 'pending', 'backing_off'], description: '`pending` while a top-up is charged; `backing_off` after a decline, until `retry_at`' })
  status!: AutoTopUpStatus['status'];
  @ApiProperty({ type: () => TopUpErrorResponse, nullable: true, description: 'Why the last top-up failed' }) last_error!: TopUpErrorResponse | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the wallet tops up again if its balance is still at or below the trigger' }) retry_at!: string | null;
}

export class WalletSourceResponse implements WalletSource {
  @ApiProperty({ enum: WALLET_SOURCE_TYPES }) type!: WalletSourceType;
  @ApiProperty({ type: String, nullable: true, example: 'inv_01JD…', description: 'The id of the invoice, payment, credit note, refund or top-up; null for a manual posting' }) id!: string | null;
}

export class WalletTransactionResponse implements KnownFields<WalletTransactionResource> {
  @ApiProperty({ example: 'wtx_01JD…' }) id!: string;
  @ApiProperty({ enum: ['wallet_transaction'] }) object!: 'wallet_transaction';
  @ApiProperty({ example: 'wal_01JD…' }) wallet_id!: string;
  @ApiProperty({ example: 'cus_01JD…' }) customer_id!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ type: 'integer', example: 3, description: 'Its place in the wallet’s ledger: 1 for the first transaction' }) sequence!: number;
  @ApiProperty({ enum: ['credit', 'debit'] }) type!: 'credit' | 'debit';
  @ApiProperty({ example: '25.00', description: 'Positive; `type` says the direction' }) amount!: string;
  @ApiProperty({ example: '75.00' }) balance_after!: string;
  @ApiProperty({ enum: [...WALLET_CREDIT_REASONS, ...WALLET_DEBIT_REASONS] }) reason!: WalletTransactionResource['reason'];
  @ApiProperty({ type: () => WalletSourceResponse }) source!: WalletSourceResponse;
  @ApiProperty({ type: String, nullable: true }) external_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ enum: ['posted'] }) status!: 'posted';
  @ApiProperty({ description: 'False in the sandbox' }) livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/** A prepaid wallet (named apart from a payment method’s `wallet` details, `WalletResponse`, which the reference also shows). */
export class PrepaidWalletResponse implements KnownFields<WalletResource> {
  @ApiProperty({ example: 'wal_01JD…' }) id!: string;
  @ApiProperty({ enum: ['wallet'] }) object!: 'wallet';
  @ApiProperty({ example: 'cus_01JD…' }) customer_id!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ example: '75.00', description: 'Exact at the currency’s minor unit; never below zero' }) balance!: string;
  @ApiProperty({ type: () => AutoTopUpResponse, nullable: true }) auto_top_up!: AutoTopUpResponse | null;
  @ApiProperty({ type: () => AutoTopUpStatusResponse }) auto_top_up_status!: AutoTopUpStatusResponse;
  @ApiProperty({ type: String, nullable: true, example: '5.00' }) drift_floor!: string | null;
  @ApiProperty({ description: 'True from a `wallet.below_drift_floor` until the balance is back at or above the floor' }) below_drift_floor!: boolean;
  @ApiProperty(METADATA_SCHEMA) metadata!: Record<string, string>;
  @ApiProperty({ type: () => WalletTransactionResponse, nullable: true, description: 'The last transaction posted; in a `wallet.credited` or `wallet.debited` event, the one it posted' })
  last_transaction!: WalletTransactionResponse | null;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'The sandbox test clock the wallet lives on: its customer’s' }) test_clock!: string | null;
  @ApiProperty({ description: 'False in the sandbox' }) livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
