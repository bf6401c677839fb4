import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { API_VERSIONS, type KnownFields, type TenantEntry } from '@tally/http';
import { REGIONS } from '@tally/cells';
import type { RateLimits } from '../domain/tenant.events';
import type { ApiKeyResource, TenantResource } from '../tenant.view';

const RATE_LIMITS = {
  type: 'object',
  additionalProperties: { type: 'integer', minimum: 1 },
  description: 'Raised live limits, requests per second by group (`read`, `write`, `money`, `usage`, `admin`); sandbox gets one tenth',
  example: { read: 5000 },
} as const;

export class ApiKeyResponse implements ApiKeyResource {
  @ApiProperty({ example: 'key_01JD…' }) id!: string;
  @ApiProperty({ enum: ['api_key'] }) object!: 'api_key';
  @ApiProperty({ enum: ['live', 'sandbox'] }) environment!: 'live' | 'sandbox';
  @ApiProperty({ enum: ['active', 'revoked'] }) status!: 'active' | 'revoked';
  @ApiProperty({ description: 'The key’s last four characters' }) last4!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The key this one replaced when it was rolled' }) rolled_from!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiPropertyOptional({ description: 'The key itself: only in the response that created it, never again', example: 'sk_live_…' }) secret?: string;
}

export class TenantResponse implements KnownFields<TenantResource> {
  @ApiProperty({ example: 'ten_01JD…' }) id!: string;
  @ApiProperty({ enum: ['tenant'] }) object!: 'tenant';
  @ApiProperty() name!: string;
  @ApiProperty({ enum: REGIONS }) region!: string;
  @ApiProperty({ enum: API_VERSIONS, description: 'Requests without `Service-Version` are served in this version' }) api_version!: string;
  @ApiProperty(RATE_LIMITS) rate_limits!: RateLimits;
  @ApiProperty({ type: () => [ApiKeyResponse] }) api_keys!: ApiKeyResponse[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** A tenant as the directory lists it. */
export class TenantEntryResponse implements KnownFields<TenantEntry> {
  @ApiProperty({ example: 'ten_01JD…' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: REGIONS }) region!: TenantEntry['region'];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiPropertyOptional({ enum: API_VERSIONS }) api_version?: TenantEntry['api_version'];
  @ApiPropertyOptional(RATE_LIMITS) rate_limits?: TenantEntry['rate_limits'];
}
