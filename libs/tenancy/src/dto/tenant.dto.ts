import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { API_VERSIONS, IsKeyedObject, IsOmittable } from '@tally/http';
import { REGIONS, type Region } from '@tally/cells';
import { MAX_RATE_LIMIT, RATE_LIMIT_GROUPS } from '../domain/tenant.decider';

/** Some character that `trim()` keeps, and no NUL: a name the tenant decider accepts. */
const NAME = {
  minLength: 1,
  maxLength: 200,
  pattern: '^[^\\u0000]*[^\\u0000\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$',
  example: 'Acme',
  description: 'Not blank; kept without surrounding white space',
};

/** Every operator action may say why; the audit log keeps it. */
export class ReasonDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, example: 'Onboarding call with Acme, ticket 4711', description: 'Why; the audit log keeps it' })
  @IsOptional() @IsString() @MaxLength(500) reason?: string;
}

export class CreateTenantDto extends ReasonDto {
  @ApiProperty(NAME)
  @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  @ApiProperty({ enum: REGIONS, example: 'eu', description: 'Where the tenant’s data lives, for good' })
  @IsIn(REGIONS) region!: Region;
}

export class UpdateTenantDto extends ReasonDto {
  @ApiPropertyOptional(NAME)
  @IsOmittable() @IsString() @IsNotEmpty() @MaxLength(200) name?: string;
  /** Accepted only with the tenant's current region: a region is fixed for life (409 otherwise). */
  @ApiPropertyOptional({ enum: REGIONS, example: 'eu', description: 'Only the tenant’s current region is accepted (409 otherwise)' })
  @IsOmittable() @IsIn(REGIONS) region?: Region;
  @ApiPropertyOptional({ enum: API_VERSIONS, description: 'Pins the version requests without `Service-Version` are served in' })
  @IsOmittable() @IsIn(API_VERSIONS) api_version?: string;
  @ApiPropertyOptional({
    type: 'object',
    properties: Object.fromEntries(RATE_LIMIT_GROUPS.map((group) => [group, { type: 'integer', minimum: 1, maximum: MAX_RATE_LIMIT, example: 5000 }])),
    example: { read: 5000, write: 1000 },
    description: 'Live requests per second by group; sandbox gets one tenth',
  })
  @IsOmittable() @IsKeyedObject() rate_limits?: Record<string, number>;
}

export class CreateApiKeyDto extends ReasonDto {
  @ApiProperty({ enum: ['live', 'sandbox'], example: 'sandbox' })
  @IsIn(['live', 'sandbox']) environment!: 'live' | 'sandbox';
}
