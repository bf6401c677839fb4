import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsCountryCode } from '@tally/platform';
import { mergeAddress } from '../domain/address';
import type { Address } from '../domain/customer.events';

/** On an update, a field left out keeps its value and null clears it. */
export class AddressDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional() @IsString() @MaxLength(200) line1?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional() @IsString() @MaxLength(200) city?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional() @IsString() @MaxLength(200) region?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, pattern: '^[A-Z]{2}$', description: 'An officially assigned ISO 3166-1 alpha-2 code, upper case', example: 'DE' })
  @IsOptional() @IsString() @IsCountryCode() country?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 40 })
  @IsOptional() @IsString() @MaxLength(40) postal_code?: string | null;
}

/** The address of a new customer: fields left out are null. */
export const toAddress = (dto: AddressDto | null | undefined): Address | null => (dto ? mergeAddress(null, dto) : null);
