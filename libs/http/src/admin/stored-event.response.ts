import { ApiProperty } from '@nestjs/swagger';
import type { StoredEventView } from './stored-event-view';

/** One stored event of an aggregate with its metadata, for auditors. */
export class StoredEventResponse implements StoredEventView {
  @ApiProperty({ enum: ['stored_event'] }) object!: 'stored_event';
  @ApiProperty({ example: 'evt_01JD…' }) id!: string;
  @ApiProperty({ example: 'customer-cus_01JD…' }) stream!: string;
  @ApiProperty({ type: 'integer', description: 'Position in its stream, from 0' }) revision!: number;
  @ApiProperty({ description: 'Position in the region’s log, as a decimal string' }) position!: string;
  @ApiProperty({ example: 'CustomerCreated' }) type!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Personal data decrypted, or `[redacted]` once erased; secrets and key hashes always `[redacted]`',
    example: { customer_id: 'cus_01JD8X5Z3Q4W2R6T8Y0V1B3N5M', name: 'Ada Lovelace' },
  })
  data!: unknown;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Tenant, environment, actor, request and schema version',
    example: {
      tenant_id: 'ten_01JD8X2M4N6P8Q0R2S4T6V8W0X',
      environment: 'live',
      actor: 'key:key_01JD8X2M4N6P8Q0R2S4T6V8W0Y',
      request_id: 'req_01JD8X5Z3Q4W2R6T8Y0V1B3N5P',
      correlation_id: 'req_01JD8X5Z3Q4W2R6T8Y0V1B3N5P',
      causation_id: 'req_01JD8X5Z3Q4W2R6T8Y0V1B3N5P',
      occurred_at: '2026-06-01T09:30:00.000Z',
      schema_version: 1,
    },
  })
  metadata!: Record<string, unknown>;
}
