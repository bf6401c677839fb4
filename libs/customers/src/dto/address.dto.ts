import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { Address } from '../domain/customer.events';
import { IsCountryCode } from './is-country-code.decorator';

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

/** Every address field present, in one order, so equal addresses compare equal. */
export const toAddress = (dto: AddressDto | null | undefined): Address | null =>
  dto
    ? { line1: dto.line1 ?? null, city: dto.city ?? null, region: dto.region ?? null, country: dto.country ?? null, postal_code: dto.postal_code ?? null }
    : null;
