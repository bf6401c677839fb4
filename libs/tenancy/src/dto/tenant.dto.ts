import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { API_VERSIONS } from '@tally/platform';

/** Every operator action may say why; the audit log keeps it. */
export class ReasonDto {
  @IsOptional() @IsString() @MaxLength(500) reason?: string;
}

export class CreateTenantDto extends ReasonDto {
  @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  @IsIn(['us', 'eu', 'apac']) region!: 'us' | 'eu' | 'apac';
}

export class UpdateTenantDto extends ReasonDto {
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) name?: string;
  /** Accepted only with the tenant's current region: a region is fixed for life (409 otherwise). */
  @IsOptional() @IsString() region?: string;
  @IsOptional() @IsIn(API_VERSIONS) api_version?: string;
  /** Live requests per second by group (`read`, `write`, `money`, `usage`, `admin`); sandbox gets one tenth. */
  @IsOptional() @IsObject() rate_limits?: Record<string, number>;
}

export class CreateApiKeyDto extends ReasonDto {
  @IsIn(['live', 'sandbox']) environment!: 'live' | 'sandbox';
}
