import { ApiHeader } from '@nestjs/swagger';

/** A POST under `/v1`: `Idempotency-Key` makes a retry safe. Its problems are IDEMPOTENT_PROBLEMS. */
export const ApiIdempotent = (): MethodDecorator =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    schema: { type: 'string', format: 'uuid' },
    description: 'A retry with the same key and body gets the first response again, marked `Idempotent-Replayed: true`',
  });
