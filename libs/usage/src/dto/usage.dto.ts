import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { keyedMapSchema, TIMESTAMP_SCHEMA } from '@tally/http';
import { METER, METER_MAX_LENGTH } from '@tally/catalog/published';
import { EXTERNAL_ID_MAX_LENGTH, MAX_PROPERTIES, PROPERTY_KEY, PROPERTY_VALUE_MAX_LENGTH } from '../domain/usage-event.parse';

/**
 * The schemas of the usage bodies, for the OpenAPI document. The bodies themselves are checked by
 * the usage domain's own parser (parse-usage-event.ts), which reports every failing event of a
 * batch by its index, and is fast enough for a thousand events a request.
 */
export const QUANTITY_SCHEMA = {
  type: 'string',
  pattern: '^-?[0-9]{1,20}(\\.[0-9]{1,12})?$',
  example: '12.5',
  description: 'A decimal string; negative for a correction. Exponent notation (`1.0e3`) is refused.',
} as const;

export const PROPERTIES_SCHEMA = keyedMapSchema(
  { type: 'string', pattern: PROPERTY_KEY.source },
  { oneOf: [{ type: 'string', maxLength: PROPERTY_VALUE_MAX_LENGTH }, { type: 'number' }] },
  {
    maxProperties: MAX_PROPERTIES,
    example: { user_id: 'u_42' },
    description: `Free-form attributes of the event, at most ${MAX_PROPERTIES}; \`unique_count\` counts the distinct values of the one its component names`,
  },
);

const EXTERNAL_ID = { type: 'string', minLength: 1, maxLength: EXTERNAL_ID_MAX_LENGTH } as const;

export class UsageEventDto {
  @ApiProperty({ example: 'sub_01JD8X5Z3Q4W2R6T8Y0V1B3N5M', minLength: 1, maxLength: 255 }) subscription_id!: string;
  @ApiProperty({ example: 'api_calls', pattern: METER.source, maxLength: METER_MAX_LENGTH, description: 'A meter of a usage component of the subscription’s plan' }) meter!: string;
  @ApiProperty(QUANTITY_SCHEMA) quantity!: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'When the usage happened, with its zone; kept in UTC to the millisecond. At most 35 days back and 5 minutes ahead of the subscription’s clock.' })
  timestamp!: string;
  @ApiPropertyOptional({ ...EXTERNAL_ID, example: 'req_8f2a', description: 'The dedupe key: a later event with the same subscription, meter and key changes nothing. Default: the Idempotency-Key, else a generated UUID.' })
  external_id?: string;
  @ApiPropertyOptional({ ...EXTERNAL_ID, example: 'req_8f2a', description: 'Another name of `external_id`; when both are sent they must be equal' }) idempotency_key?: string;
  @ApiPropertyOptional(PROPERTIES_SCHEMA) properties?: Record<string, string | number>;
}

export class UsageBatchDto {
  @ApiProperty({ type: () => [UsageEventDto], minItems: 1, maxItems: 1000, description: 'Accepted all together or not at all' }) events!: UsageEventDto[];
}

export class UsageEventResponse {
  @ApiProperty({ enum: ['usage_event'] }) object!: 'usage_event';
  @ApiProperty() subscription_id!: string;
  @ApiProperty() meter!: string;
  @ApiProperty(QUANTITY_SCHEMA) quantity!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty() external_id!: string;
  @ApiProperty({ ...PROPERTIES_SCHEMA, nullable: true }) properties!: Record<string, string> | null;
  @ApiProperty({ format: 'date-time', description: 'When it was accepted, on the subscription’s clock' }) received_at!: string;
  @ApiProperty({
    description:
      'True when the event sent copies one accepted before (the same subscription, meter and external_id), which is what counts: this is that event, as stored. False when it counts, or when its original was not known yet (accepted at the same moment elsewhere), which the count still merges.',
  })
  duplicate!: boolean;
}

export class UsageDuplicateResponse {
  @ApiProperty({ type: 'integer', example: 3, description: 'The index of the copy in the batch' }) index!: number;
  @ApiProperty({ type: () => UsageEventResponse, description: 'The event it copies, as stored, which is what counts' }) event!: UsageEventResponse;
}

export class UsageBatchResponse {
  @ApiProperty({ enum: ['usage_batch'] }) object!: 'usage_batch';
  @ApiProperty({ example: 'ubat_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }) id!: string;
  @ApiProperty({ type: 'integer', example: 1000, description: 'Events accepted (duplicates among them are merged when counted)' }) accepted!: number;
  @ApiProperty({ type: () => [UsageDuplicateResponse], description: 'Each event of the batch known to copy one accepted before (or one earlier in the batch), with that event: these count nothing' })
  duplicates!: UsageDuplicateResponse[];
}
