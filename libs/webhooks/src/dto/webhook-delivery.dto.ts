import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsString, MaxLength } from 'class-validator';
import { IsOmittable, IsTimestamp, TIMESTAMP_SCHEMA } from '@tally/http';
import type { DeliveryDoc } from '../outbox/outbox-documents';

export const WEBHOOK_DELIVERY_STATUSES: readonly DeliveryDoc['status'][] = ['pending', 'succeeded', 'failed'];

export class ReplayWebhookEventsDto {
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'Deliveries created at or after this' })
  @IsTimestamp()
  from!: string;

  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'Deliveries created before this; at most 7 days after `from`' })
  @IsTimestamp()
  to!: string;

  @ApiPropertyOptional({ type: 'array', items: { type: 'string', maxLength: 100 }, minItems: 1, maxItems: 100, example: ['invoice.paid'], description: 'Only these event types' })
  @IsOmittable() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(100) @IsString({ each: true }) @MaxLength(100, { each: true })
  types?: string[];

  @ApiPropertyOptional({ enum: WEBHOOK_DELIVERY_STATUSES, example: 'failed', description: 'Only deliveries with this outcome' })
  @IsOmittable() @IsIn(WEBHOOK_DELIVERY_STATUSES)
  status?: 'pending' | 'succeeded' | 'failed';
}

export class WebhookAttemptResponse {
  @ApiProperty({ example: 1 }) attempt!: number;
  @ApiProperty({ format: 'date-time' }) attempted_at!: string;
  @ApiProperty({ example: 42 }) duration_ms!: number;
  @ApiProperty({ type: 'integer', nullable: true, example: 200 }) response_status!: number | null;
  @ApiProperty({ type: 'string', nullable: true, example: 'timeout' }) error!: string | null;
}

export class WebhookDeliveryRequestResponse {
  @ApiProperty({ description: 'The body as POSTed (the event in the endpoint’s API version), as a string' }) body!: string;
}

export class WebhookDeliveryResponse {
  @ApiProperty({ example: 'del_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }) id!: string;
  @ApiProperty({ enum: ['webhook_delivery'] }) object!: 'webhook_delivery';
  @ApiProperty({ example: 'we_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }) webhook_endpoint_id!: string;
  @ApiProperty({ example: 'evt_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }) event_id!: string;
  @ApiProperty({ example: 'invoice.paid' }) event_type!: string;
  @ApiProperty({ example: 'inv_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }) aggregate_id!: string;
  @ApiProperty({ enum: WEBHOOK_DELIVERY_STATUSES }) status!: 'pending' | 'succeeded' | 'failed';
  @ApiProperty({ example: 1 }) attempt_count!: number;
  @ApiProperty({ type: [WebhookAttemptResponse], description: 'The last 20 attempts' }) attempts!: WebhookAttemptResponse[];
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) next_attempt_at!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 200 }) response_status!: number | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'The last answer’s body, cut to 4096 bytes' }) response_body!: string | null;
  @ApiProperty({ type: () => WebhookDeliveryRequestResponse, nullable: true, description: 'null once the event has left the event log' }) request!: WebhookDeliveryRequestResponse | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'The delivery a replay sends again' }) replay_of!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class WebhookReplayResponse {
  @ApiProperty({ example: 'whrp_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }) id!: string;
  @ApiProperty({ enum: ['webhook_replay'] }) object!: 'webhook_replay';
  @ApiProperty({ example: 'we_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }) webhook_endpoint_id!: string;
  @ApiProperty({ example: 12, description: 'Deliveries made anew, each with its event’s id' }) deliveries!: number;
}
