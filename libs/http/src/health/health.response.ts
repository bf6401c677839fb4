import { ApiProperty } from '@nestjs/swagger';

export class LivenessResponse {
  @ApiProperty({ enum: ['ok'] }) status!: 'ok';
}

export class ReadinessResponse {
  @ApiProperty({ enum: ['ok'] }) status!: 'ok';
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string', enum: ['ok'] }, description: 'Every cell this process serves, by region', example: { eu: 'ok' } })
  cells!: Record<string, 'ok'>;
}
