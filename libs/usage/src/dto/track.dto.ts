import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { METER, METER_MAX_LENGTH } from '@tally/catalog/published';
import { TIMESTAMP_SCHEMA } from '@tally/http';
import { EXTERNAL_ID_MAX_LENGTH } from '../domain/usage-event.parse';
import { PROPERTIES_SCHEMA, QUANTITY_SCHEMA } from './usage.dto';

export class TrackEventDto {
  @ApiProperty({ example: 'cus_01JD8X5Z3Q4W2R6T8Y0V1B3N5M', minLength: 1, maxLength: 255 }) customer_id!: string;
  @ApiProperty({ example: 'api_calls', pattern: METER.source, maxLength: METER_MAX_LENGTH, description: 'The meter: a usage component of the plan of one of the customer’s subscriptions meters it' }) feature_code!: string;
  @ApiProperty({
    oneOf: [QUANTITY_SCHEMA, { type: 'number', description: 'A JSON number is read as its decimal text; one written with an exponent is refused' }],
    example: '3',
    description: 'The quantity',
  })
  value!: string | number;
  @ApiPropertyOptional({ type: 'string', minLength: 1, maxLength: EXTERNAL_ID_MAX_LENGTH, example: 'req_8f2a', description: 'The dedupe key; default the Idempotency-Key, else a generated time-ordered UUID' }) dedup_key?: string;
  @ApiPropertyOptional(PROPERTIES_SCHEMA) properties?: Record<string, string | number>;
  @ApiPropertyOptional({ ...TIMESTAMP_SCHEMA, description: 'When the usage happened; default now on the subscription’s clock' }) timestamp?: string;
}

export class TrackBulkDto {
  @ApiProperty({ type: () => [TrackEventDto], minItems: 1, maxItems: 1000, description: 'Accepted all together or not at all' }) events!: TrackEventDto[];
}
