import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsKeyedObject, IsOmittable, METADATA_SCHEMA } from '@tally/http';
import { TAX_ID_TYPES } from '../domain/tax-ids/tax-id';
import { AddressDto } from './address.dto';

/** The fields a customer has, on create and on update. */
class CustomerFieldsDto {
  @ApiPropertyOptional({ type: String, format: 'email', nullable: true, maxLength: 512, example: 'ada@example.com', description: 'Need not be unique' })
  @IsOptional() @IsEmail() @MaxLength(512) email?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 256, example: 'Ada Lovelace' })
  @IsOptional() @IsString() @MaxLength(256) name?: string | null;
  @ApiPropertyOptional({ type: () => AddressDto, nullable: true })
  @IsOptional() @ValidateNested() @Type(() => AddressDto) billing_address?: AddressDto | null;
  /** Limits (50 keys, 500-byte string values) are the domain's rule. */
  @ApiPropertyOptional(METADATA_SCHEMA)
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}

export class CreateCustomerDto extends CustomerFieldsDto {
  @ApiPropertyOptional({ type: String, pattern: '^clock_[0-9A-Z]+$', example: 'clock_01JD8X5Z3Q4W2R6T8Y0V1B3N5M', description: 'Sandbox only: the test clock the customer lives on, fixed for life' })
  @IsOmittable() @IsString() @Matches(/^clock_[0-9A-Z]+$/, { message: 'test_clock is a test clock id (clock_…)' }) test_clock?: string;
}

export class UpdateCustomerDto extends CustomerFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true, pattern: '^pm_[0-9A-Za-z]+$', example: 'pm_01JD8X5Z3Q4W2R6T8Y0V1B3N5M', description: 'The payment method that subscriptions charge unless they name their own' })
  @IsOptional() @IsString() @Matches(/^pm_[0-9A-Za-z]+$/, { message: 'default_payment_method_id is a payment method id (pm_…)' })
  default_payment_method_id?: string | null;
}

export class AddTaxIdDto {
  @ApiProperty({ enum: TAX_ID_TYPES, example: 'eu_vat', description: 'The kind of tax ID; more kinds will follow' })
  @IsString() @IsNotEmpty() @MaxLength(32) type!: string;
  @ApiProperty({ minLength: 1, maxLength: 64, example: 'DE136695976', description: 'As printed, with its country prefix' })
  @IsString() @IsNotEmpty() @MaxLength(64) value!: string;
}
