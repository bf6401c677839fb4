import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { METER, METER_MAX_LENGTH } from '@tally/catalog/published';
import { IsOmittable } from '@tally/http';
import { USAGE_ALERT_STATUSES, type UsageAlertStatus } from '../usage-alerts/usage-alert.view';

const THRESHOLD = /^[0-9]{1,20}(\.[0-9]{1,12})?$/;

export class CreateUsageAlertDto {
  @ApiProperty({ example: 'sub_01JD8X5Z3Q4W2R6T8Y0V1B3N5M', minLength: 1, maxLength: 255 })
  @IsString() @MinLength(1) @MaxLength(255)
  subscription_id!: string;

  @ApiProperty({ example: 'api_calls', pattern: METER.source, maxLength: METER_MAX_LENGTH, description: 'A meter of a usage component of the subscription’s plan' })
  @IsString() @MaxLength(METER_MAX_LENGTH) @Matches(METER, { message: 'meter is a meter name' })
  meter!: string;

  @ApiProperty({ pattern: THRESHOLD.source, example: '10000', description: 'Fires when the meter’s aggregate in a period (as its component prices it) reaches this; above 0' })
  @IsString() @Matches(THRESHOLD, { message: 'threshold is a decimal string such as 10000' })
  threshold!: string;

  @ApiPropertyOptional({ maxLength: 100, example: 'Half the included calls' })
  @IsOmittable() @IsString() @MaxLength(100)
  title?: string;
}

export class UsageAlertTriggerResponse {
  @ApiProperty({ format: 'date-time' }) period_start!: string;
  @ApiProperty({ example: '10250', description: 'The aggregate when it fired' }) quantity!: string;
  @ApiProperty({ format: 'date-time' }) triggered_at!: string;
}

export class UsageAlertResponse {
  @ApiProperty({ example: 'ualt_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }) id!: string;
  @ApiProperty({ enum: ['usage_alert'] }) object!: 'usage_alert';
  @ApiProperty() subscription_id!: string;
  @ApiProperty() meter!: string;
  @ApiProperty({ example: '10000' }) threshold!: string;
  @ApiProperty({ type: 'string', nullable: true }) title!: string | null;
  @ApiProperty({ enum: USAGE_ALERT_STATUSES }) status!: UsageAlertStatus;
  @ApiProperty({ type: () => UsageAlertTriggerResponse, nullable: true, description: 'When it last fired' }) last_triggered!: UsageAlertTriggerResponse | null;
  @ApiProperty() livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
