import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { API_VERSIONS, IsOmittable } from '@tally/http';
import type { WebhookEndpointStatus } from '../domain/webhook-endpoint.events';

export const WEBHOOK_ENDPOINT_STATUSES: readonly WebhookEndpointStatus[] = ['enabled', 'disabled'];
const EVENTS_EXAMPLE = ['invoice.paid', 'subscription.*'];
const EVENTS_SCHEMA = { type: 'array' as const, items: { type: 'string' as const, maxLength: 100 }, minItems: 1, maxItems: 256, example: EVENTS_EXAMPLE };
/** The longest overlap of an old secret with its successor: a week. */
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 24 * 3600;

export class CreateWebhookEndpointDto {
  @ApiProperty({ example: 'https://example.com/tally/webhooks', maxLength: 2048, description: 'https; sandbox endpoints may also use http to a loopback host (localhost, 127.0.0.1, [::1])' })
  @IsString() @MaxLength(2048)
  url!: string;

  @ApiProperty({ ...EVENTS_SCHEMA, description: 'Event types, `category.*` patterns or `*` (1 to 256); unknown types are refused' })
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(256) @IsString({ each: true }) @MaxLength(100, { each: true })
  events!: string[];

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 500, example: 'Order fulfilment' })
  @IsOmittable() @ValidateIf((_dto, value) => value !== null) @IsString() @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional({ enum: API_VERSIONS, example: '2026-04-01', description: 'The version deliveries are rendered in; the request’s version when omitted' })
  @IsOmittable() @IsIn(API_VERSIONS)
  api_version?: string;
}

export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ example: 'https://example.com/tally/webhooks', maxLength: 2048 })
  @IsOmittable() @IsString() @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ ...EVENTS_SCHEMA, description: 'Replaces the list: event types, `category.*` patterns or `*`' })
  @IsOmittable() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(256) @IsString({ each: true }) @MaxLength(100, { each: true })
  events?: string[];

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 500, example: 'Order fulfilment' })
  @IsOmittable() @ValidateIf((_dto, value) => value !== null) @IsString() @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional({ enum: WEBHOOK_ENDPOINT_STATUSES, example: 'disabled', description: 'A disabled endpoint gets no new deliveries; attempts under way finish' })
  @IsOmittable() @IsIn(WEBHOOK_ENDPOINT_STATUSES)
  status?: 'enabled' | 'disabled';
}

export class RotateWebhookSecretDto {
  @ApiPropertyOptional({ type: 'integer', example: 86400, minimum: 0, maximum: MAX_SECRET_OVERLAP_SECONDS, description: 'Seconds the old secret keeps signing beside the new one (0 by default: it stops at once)' })
  @IsOmittable() @IsInt() @Min(0) @Max(MAX_SECRET_OVERLAP_SECONDS)
  expires_in?: number;
}

export class LastFailedDeliveryResponse {
  @ApiProperty({ example: 'del_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }) id!: string;
  @ApiProperty({ example: 'evt_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }) event_id!: string;
  @ApiProperty({ example: 'invoice.paid' }) event_type!: string;
  @ApiProperty({ example: 7 }) attempts!: number;
  @ApiProperty({ format: 'date-time' }) failed_at!: string;
}

export class WebhookEndpointResponse {
  @ApiProperty({ example: 'we_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }) id!: string;
  @ApiProperty({ enum: ['webhook_endpoint'] }) object!: 'webhook_endpoint';
  @ApiProperty({ example: 'https://example.com/tally/webhooks' }) url!: string;
  @ApiProperty({ type: [String], example: EVENTS_EXAMPLE }) events!: string[];
  @ApiProperty({ type: 'string', nullable: true }) description!: string | null;
  @ApiProperty({ enum: API_VERSIONS }) api_version!: string;
  @ApiProperty({ enum: WEBHOOK_ENDPOINT_STATUSES }) status!: 'enabled' | 'disabled';
  @ApiProperty({ type: () => LastFailedDeliveryResponse, nullable: true }) last_failed_delivery!: LastFailedDeliveryResponse | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) secret_rotated_at!: string | null;
  @ApiProperty() livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class WebhookEndpointWithSecretResponse extends WebhookEndpointResponse {
  @ApiProperty({ example: 'whsec_5WbX5kEWLlfzsGNjH64I8lOOqUB6e8FH', description: 'The signing secret: shown in this response only' }) secret!: string;
}

export class DeletedWebhookEndpointResponse {
  @ApiProperty({ example: 'we_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }) id!: string;
  @ApiProperty({ enum: ['webhook_endpoint'] }) object!: 'webhook_endpoint';
  @ApiProperty({ enum: [true] }) deleted!: true;
}
