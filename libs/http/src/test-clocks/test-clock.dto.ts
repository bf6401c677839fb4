import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { TestClockResource } from '@tally/runtime';
import { IsTimestamp } from '../body/timestamp';
import { TIMESTAMP_SCHEMA } from '../openapi/field-schemas';
import type { KnownFields } from '../openapi/known-fields';

export class CreateTestClockDto {
  @ApiProperty({ ...TIMESTAMP_SCHEMA, example: '2026-01-31T00:00:00Z', description: 'The time the clock starts at; it moves only when advanced. In the years 2000 to 2099' })
  @IsTimestamp() frozen_time!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 300, example: 'Annual plan, anchor on Jan 31' })
  @IsOptional() @IsString() @MaxLength(300) name?: string | null;
}

export class AdvanceTestClockDto {
  @ApiProperty({ ...TIMESTAMP_SCHEMA, example: '2026-03-01T00:00:00Z', description: 'Later than the clock’s time, by at most two years; in the years 2000 to 2099' })
  @IsTimestamp() frozen_time!: string;
}

export class TestClockResponse implements KnownFields<TestClockResource> {
  @ApiProperty({ example: 'clock_01JD…' }) id!: string;
  @ApiProperty({ enum: ['test_clock'] }) object!: 'test_clock';
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ format: 'date-time', description: 'The clock’s time; while advancing, the time it is advancing to' }) frozen_time!: string;
  @ApiProperty({ enum: ['ready', 'advancing'], description: '`advancing` while the timers due up to `frozen_time` fire; then `ready`' }) status!: 'ready' | 'advancing';
  @ApiProperty({ enum: [false] }) livemode!: false;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class DeletedTestClockResponse {
  @ApiProperty({ example: 'clock_01JD…' }) id!: string;
  @ApiProperty({ enum: ['test_clock'] }) object!: 'test_clock';
  @ApiProperty({ enum: [true] }) deleted!: true;
}
