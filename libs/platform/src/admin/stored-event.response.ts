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
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Personal data decrypted, or `[redacted]` once erased' }) data!: unknown;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Tenant, environment, actor, request and schema version' }) metadata!: Record<string, unknown>;
}
