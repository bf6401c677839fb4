import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsKeyedObject, IsOmittable, METADATA_SCHEMA } from '@tally/http';
import type { PaymentMethodType } from '../domain/payment-method.events';
import type { SetupIntentUsage } from '../domain/setup-intent.events';
import { PAYMENT_METHOD_TYPES } from '../dto/payment-method.dto';

const USAGES: readonly SetupIntentUsage[] = ['off_session', 'on_session'];

export class CreateSetupIntentDto {
  @ApiProperty({ pattern: '^cus_[0-9A-Za-z]+$', example: 'cus_01JD8X5Z3Q4W2R6T8Y0V1B3N5M', description: 'The customer the method will belong to' })
  @IsString() @Matches(/^cus_[0-9A-Za-z]+$/, { message: 'customer_id is a customer id (cus_…)' }) customer_id!: string;
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...PAYMENT_METHOD_TYPES] },
    minItems: 1,
    maxItems: 4,
    uniqueItems: true,
    default: ['card'],
    example: ['card'],
    description: 'The kinds of method the client may confirm it with',
  })
  @IsOmittable() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(4) @ArrayUnique() @IsIn(PAYMENT_METHOD_TYPES, { each: true }) payment_method_types?: PaymentMethodType[];
  @ApiPropertyOptional({ enum: USAGES, default: 'off_session', example: 'off_session', description: 'How the method will be charged: later without the customer (subscriptions), or while they are there' })
  @IsOmittable() @IsIn(USAGES) usage?: SetupIntentUsage;
  @ApiPropertyOptional({ default: false, example: true, description: 'Make the confirmed method the customer’s default' })
  @IsOmittable() @IsBoolean() set_as_default?: boolean;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, example: 'Card for the Team plan' })
  @IsOptional() @IsString() @MaxLength(500) description?: string | null;
  @ApiPropertyOptional(METADATA_SCHEMA)
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}

export class ConfirmSetupIntentDto {
  @ApiProperty({ enum: PAYMENT_METHOD_TYPES, example: 'card' })
  @IsIn(PAYMENT_METHOD_TYPES) type!: PaymentMethodType;
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'tok_visa', description: 'The token the client got from the provider; a card number is refused' })
  @IsString() @IsNotEmpty() @MaxLength(255) token!: string;
}

export class CancelSetupIntentDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'abandoned' })
  @IsOptional() @IsString() @MaxLength(200) cancellation_reason?: string | null;
}
