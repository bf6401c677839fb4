import { ApiProperty } from '@nestjs/swagger';
import { METADATA_SCHEMA, type KnownFields } from '@tally/http';
import type { PaymentMethodType } from '../domain/payment-method.events';
import type { SetupIntentStatus } from '../domain/setup-intent.decider';
import type { SetupIntentUsage } from '../domain/setup-intent.events';
import { PAYMENT_METHOD_TYPES } from '../dto/payment-method.dto';
import type { SetupIntentResource } from './setup-intent.view';

export class SetupIntentResponse implements KnownFields<SetupIntentResource> {
  @ApiProperty({ example: 'seti_01JD…' }) id!: string;
  @ApiProperty({ enum: ['setup_intent'] }) object!: 'setup_intent';
  @ApiProperty({ example: 'cus_01JD…' }) customer_id!: string;
  @ApiProperty({ enum: ['requires_payment_method', 'succeeded', 'canceled'] satisfies SetupIntentStatus[] }) status!: SetupIntentStatus;
  @ApiProperty({ type: [String], enum: PAYMENT_METHOD_TYPES }) payment_method_types!: PaymentMethodType[];
  @ApiProperty({ enum: ['off_session', 'on_session'] }) usage!: SetupIntentUsage;
  @ApiProperty() set_as_default!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'The method attached by the confirmation' }) payment_method_id!: string | null;
  @ApiProperty({ example: 'seti_01JD…_secret_…', description: 'For the client that confirms it' }) client_secret!: string;
  @ApiProperty({ type: String, nullable: true }) cancellation_reason!: string | null;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty(METADATA_SCHEMA) metadata!: Record<string, string>;
  @ApiProperty({ description: 'False in the sandbox' }) livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
