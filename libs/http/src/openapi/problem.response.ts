import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { FieldError } from '@tally/kernel';
import type { ProblemBody } from '../problems/problem';

export class FieldErrorResponse implements FieldError {
  @ApiProperty({ description: 'Path of the field, e.g. `billing_address.country`', example: 'billing_address.country' })
  field!: string;

  @ApiProperty({ example: 'field.matches' })
  code!: string;

  @ApiProperty()
  message!: string;
}

/** The body of every error: RFC 9457 problem details plus the stable `problem` code of docs/errors.md. */
export class ProblemResponse implements ProblemBody {
  @ApiProperty({ format: 'uri', example: 'https://docs.tally.dev/errors/customer.not_found' })
  type!: string;

  @ApiProperty({ example: 'Not found' })
  title!: string;

  @ApiProperty({ type: 'integer', minimum: 400, maximum: 599, example: 404 })
  status!: number;

  @ApiProperty({ description: 'The stable code; branch on it, never on `detail`', example: 'customer.not_found' })
  problem!: string;

  @ApiProperty({ example: 'No customer cus_01JD…' })
  detail!: string;

  @ApiProperty({ type: String, nullable: true, description: 'Equals the `Request-Id` response header', example: 'req_01JD…' })
  trace_id!: string | null;

  @ApiPropertyOptional({ type: [FieldErrorResponse], description: 'The failing fields, where a body or parameter failed validation' })
  errors?: FieldErrorResponse[];
}
