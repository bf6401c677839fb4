import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { PublicEventDoc, ResourceDoc } from '@tally/runtime';
import type { KnownFields } from '../openapi/known-fields';

export class EventRequestResponse {
  @ApiProperty({ type: String, nullable: true, description: 'The `Request-Id` of the request that caused the event; null for events of background work', example: 'req_01JD…' })
  id!: string | null;
}

/** An entry of the public event log, as webhooks deliver it. */
export class EventResponse implements Omit<KnownFields<PublicEventDoc>, 'environment'> {
  @ApiProperty({ example: 'evt_01JD…' }) id!: string;
  @ApiProperty({ enum: ['event'] }) object!: 'event';
  @ApiProperty({ example: 'customer.created' }) type!: string;
  @ApiProperty({ format: 'date-time' }) occurred_at!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: 'integer' }) schema_version!: number;
  @ApiProperty({ example: 'ten_01JD…' }) tenant_id!: string;
  @ApiProperty({ example: 'customer' }) aggregate_type!: string;
  @ApiProperty({ example: 'cus_01JD…' }) aggregate_id!: string;
  @ApiProperty({ type: 'integer', description: 'Place among the published events of its aggregate, from 1 without gaps: order one aggregate’s events by it' }) sequence!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The resource after the event, as its endpoint shows it',
    example: { id: 'cus_01JD8X5Z3Q4W2R6T8Y0V1B3N5M', object: 'customer', email: 'ada@example.com', name: 'Ada Lovelace', updated_at: '2026-06-01T09:30:00.000Z' },
  })
  data!: ResourceDoc;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The old values of the top-level fields that changed',
    example: { name: 'Ada', updated_at: '2026-05-12T14:03:11.000Z' },
  })
  previous_attributes?: Record<string, unknown>;

  @ApiProperty({ type: () => EventRequestResponse }) request!: EventRequestResponse;
}
