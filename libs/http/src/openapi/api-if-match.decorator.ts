import { ApiHeader } from '@nestjs/swagger';

/** An update that takes `If-Match` (parseIfMatch): the `ETag` of a previous response, which holds the revision. */
export const ApiIfMatch = (resource: string): MethodDecorator =>
  ApiHeader({
    name: 'If-Match',
    required: false,
    schema: { type: 'string', pattern: '^(W/)?"-?[0-9]+"$', example: 'W/"3"' },
    description: `Apply only if the ${resource} is still at this revision (an \`ETag\` of a previous response); 412 otherwise`,
  });
