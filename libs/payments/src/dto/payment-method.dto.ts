import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { AddressDto } from '@tally/customers';
import { IsKeyedObject, IsOmittable, METADATA_SCHEMA } from '@tally/http';
import type { PaymentMethodType } from '../domain/payment-method.events';

export const PAYMENT_METHOD_TYPES: readonly PaymentMethodType[] = ['card', 'bank_account', 'paypal', 'wallet'];

export class AttachPaymentMethodDto {
  @ApiProperty({ enum: PAYMENT_METHOD_TYPES, example: 'card' })
  @IsIn(PAYMENT_METHOD_TYPES) type!: PaymentMethodType;
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'tok_visa', description: 'A token from client-side tokenisation (in the sandbox, one of the test tokens). A card number is refused.' })
  @IsString() @IsNotEmpty() @MaxLength(255) token!: string;
  @ApiPropertyOptional({ default: false, example: true, description: 'Make it the customer’s default payment method, demoting the current one' })
  @IsOmittable() @IsBoolean() set_as_default?: boolean;
  @ApiPropertyOptional({ type: () => AddressDto, nullable: true })
  @IsOptional() @ValidateNested() @Type(() => AddressDto) billing_address?: AddressDto | null;
  @ApiPropertyOptional(METADATA_SCHEMA)
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}

export class UpdatePaymentMethodDto {
  @ApiPropertyOptional({ type: () => AddressDto, nullable: true, description: 'Merged field by field; null removes the address' })
  @IsOptional() @ValidateNested() @Type(() => AddressDto) billing_address?: AddressDto | null;
  @ApiPropertyOptional({ ...METADATA_SCHEMA, description: 'Merged key by key; an empty string removes a key' })
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
  @ApiPropertyOptional({ example: true, description: 'true makes it the customer’s default (demoting the current one); false on the default leaves the customer without one' })
  @IsOmittable() @IsBoolean() is_default?: boolean;
}

const AMOUNT = /^[0-9]{1,6}(\.[0-9]{1,8})?$/;

export class ConfirmMicroDepositsDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', pattern: AMOUNT.source, example: '0.32' },
    minItems: 2,
    maxItems: 2,
    example: ['0.32', '0.45'],
    description: 'The two amounts deposited on the bank account, as decimal strings',
  })
  @IsArray() @ArrayMinSize(2) @ArrayMaxSize(2) @IsString({ each: true }) @Matches(AMOUNT, { each: true, message: 'amounts are decimal strings such as 0.32' })
  amounts!: [string, string];
}
