import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsOptional, IsString, ValidateNested } from 'class-validator';
import { COUNTRY_CODE_SCHEMA, type KnownFields } from '@tally/http';
import type { TaxLocation } from '../domain/tax';
import { ORIGIN_REGION } from '../domain/tax-settings.decider';
import type { TaxSettingsResource } from '../tax-settings.view';

export class TaxOriginDto {
  @ApiProperty({ ...COUNTRY_CODE_SCHEMA, description: 'An officially assigned ISO 3166-1 alpha-2 code, upper case (the rule of every address)' })
  @IsString() country!: string;

  @ApiPropertyOptional({ type: String, nullable: true, pattern: ORIGIN_REGION.source, example: 'BC', description: 'ISO 3166-2 subdivision code without the country, where taxes differ by region (Canada)' })
  @IsOptional() @IsString() region?: string | null;
}

export class UpdateTaxSettingsDto {
  @ApiProperty({ type: () => TaxOriginDto, description: 'Where the tenant sells from' })
  @IsDefined() @ValidateNested() @Type(() => TaxOriginDto) origin!: TaxOriginDto;
}

export class TaxOriginResponse implements TaxLocation {
  @ApiProperty() country!: string;
  @ApiProperty({ type: String, nullable: true }) region!: string | null;
}

export class TaxSettingsResponse implements KnownFields<TaxSettingsResource> {
  @ApiProperty({ example: 'txs_01JD…' }) id!: string;
  @ApiProperty({ enum: ['tax.settings'] }) object!: 'tax.settings';
  @ApiProperty({ type: () => TaxOriginResponse, nullable: true, description: 'null until set' }) origin!: TaxOriginResponse | null;
  @ApiProperty({ enum: ['active', 'pending'], description: 'pending until an origin is set; no tax is calculated until then' }) status!: 'active' | 'pending';
  @ApiProperty() livemode!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) updated_at!: string | null;
}
