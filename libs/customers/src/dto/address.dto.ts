import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { COUNTRY_CODE_SCHEMA, IsCountryCode } from '@tally/http';
import { mergeAddress, type Address } from '@tally/kernel';

/** On an update, a field left out keeps its value and null clears it. */
export class AddressDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'Unter den Linden 77' })
  @IsOptional() @IsString() @MaxLength(200) line1?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'Berlin' })
  @IsOptional() @IsString() @MaxLength(200) city?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'BE', description: 'State, province or county; where taxes differ by region (Canada), its ISO 3166-2 code without the country' })
  @IsOptional() @IsString() @MaxLength(200) region?: string | null;
  @ApiPropertyOptional({ ...COUNTRY_CODE_SCHEMA, nullable: true, description: 'An officially assigned ISO 3166-1 alpha-2 code, upper case; it decides the tax of the customer’s invoices' })
  @IsOptional() @IsString() @IsCountryCode() country?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 40, example: '10117' })
  @IsOptional() @IsString() @MaxLength(40) postal_code?: string | null;
}

/** The address of a new customer: fields left out are null. */
export const toAddress = (dto: AddressDto | null | undefined): Address | null => (dto ? mergeAddress(null, dto) : null);
