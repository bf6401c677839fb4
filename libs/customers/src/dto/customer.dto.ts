import { Type } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { AddressDto } from './address.dto';

export class CreateCustomerDto {
  @IsOptional() @IsEmail() @MaxLength(512) email?: string | null;
  @IsOptional() @IsString() @MaxLength(256) name?: string | null;
  @IsOptional() @ValidateNested() @Type(() => AddressDto) billing_address?: AddressDto | null;
  /** Limits (50 keys, 500-byte string values) are the domain's rule. */
  @IsOptional() @IsObject() metadata?: Record<string, string>;
}

export class UpdateCustomerDto extends CreateCustomerDto {
  @IsOptional() @IsString() @Matches(/^pm_[0-9A-Za-z]+$/, { message: 'default_payment_method_id is a payment method id (pm_…)' })
  default_payment_method_id?: string | null;
}

export class AddTaxIdDto {
  @IsString() @IsNotEmpty() @MaxLength(32) type!: string;
  @IsString() @IsNotEmpty() @MaxLength(64) value!: string;
}
