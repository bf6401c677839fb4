import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsKeyedObject, IsOmittable } from '@tally/platform';
import { AddressDto } from './address.dto';

/** The fields a customer has, on create and on update. */
class CustomerFieldsDto {
  @ApiPropertyOptional({ type: String, format: 'email', nullable: true, maxLength: 512 })
  @IsOptional() @IsEmail() @MaxLength(512) email?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 256 })
  @IsOptional() @IsString() @MaxLength(256) name?: string | null;
  @ApiPropertyOptional({ type: () => AddressDto, nullable: true })
  @IsOptional() @ValidateNested() @Type(() => AddressDto) billing_address?: AddressDto | null;
  /** Limits (50 keys, 500-byte string values) are the domain's rule. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'At most 50 keys of 1–40 characters, string values of at most 500 bytes; an update merges keys, and an empty string removes one' })
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}

export class CreateCustomerDto extends CustomerFieldsDto {
  @ApiPropertyOptional({ type: String, pattern: '^clock_[0-9A-Z]+$', example: 'clock_01JD…', description: 'Sandbox only: the test clock the customer lives on, fixed for life' })
  @IsOptional() @IsString() @Matches(/^clock_[0-9A-Z]+$/, { message: 'test_clock is a test clock id (clock_…)' }) test_clock?: string;
}

export class UpdateCustomerDto extends CustomerFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true, pattern: '^pm_[0-9A-Za-z]+$' })
  @IsOptional() @IsString() @Matches(/^pm_[0-9A-Za-z]+$/, { message: 'default_payment_method_id is a payment method id (pm_…)' })
  default_payment_method_id?: string | null;
}

export class AddTaxIdDto {
  @ApiProperty({ minLength: 1, maxLength: 32, example: 'eu_vat', description: 'Supported: `eu_vat`' })
  @IsString() @IsNotEmpty() @MaxLength(32) type!: string;
  @ApiProperty({ minLength: 1, maxLength: 64, example: 'DE136695976' })
  @IsString() @IsNotEmpty() @MaxLength(64) value!: string;
}
