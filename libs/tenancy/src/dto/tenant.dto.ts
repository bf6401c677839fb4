import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { API_VERSIONS, IsKeyedObject, IsOmittable, REGIONS } from '@tally/platform';

/** Every operator action may say why; the audit log keeps it. */
export class ReasonDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, example: 'onboarding' })
  @IsOptional() @IsString() @MaxLength(500) reason?: string;
}

export class CreateTenantDto extends ReasonDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Acme' })
  @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  @ApiProperty({ enum: REGIONS, description: 'Where the tenant’s data lives, for good' })
  @IsIn(['us', 'eu', 'apac']) region!: 'us' | 'eu' | 'apac';
}

export class UpdateTenantDto extends ReasonDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @IsOmittable() @IsString() @IsNotEmpty() @MaxLength(200) name?: string;
  /** Accepted only with the tenant's current region: a region is fixed for life (409 otherwise). */
  @ApiPropertyOptional({ description: 'Only the tenant’s current region is accepted (409 otherwise)' })
  @IsOmittable() @IsString() region?: string;
  @ApiPropertyOptional({ enum: API_VERSIONS, description: 'Pins the version requests without `Service-Version` are served in' })
  @IsOmittable() @IsIn(API_VERSIONS) api_version?: string;
  /** Live requests per second by group (`read`, `write`, `money`, `usage`, `admin`); sandbox gets one tenth. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'integer', minimum: 1 }, example: { read: 5000 } })
  @IsOmittable() @IsKeyedObject() rate_limits?: Record<string, number>;
}

export class CreateApiKeyDto extends ReasonDto {
  @ApiProperty({ enum: ['live', 'sandbox'] })
  @IsIn(['live', 'sandbox']) environment!: 'live' | 'sandbox';
}
