import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { EDGE_PROBLEMS, mergeProblemCodes, type ProblemCodes } from './problem-codes';
import { ProblemResponse } from './problem.response';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/**
 * Documents the error responses of an endpoint: the edge's (always) and those of `sets`, one
 * `application/problem+json` response per status whose `problem` is one of that status's codes.
 * A response's codes are a contract: the end-to-end tests refuse any other code on that status.
 */
export function ApiProblemResponses(...sets: readonly ProblemCodes[]): MethodDecorator {
  const responses = [...mergeProblemCodes([EDGE_PROBLEMS, ...sets])].sort(([a], [b]) => a - b);
  return applyDecorators(
    ApiExtraModels(ProblemResponse),
    ...responses.map(([status, codes]) =>
      ApiResponse({
        status,
        description: codes.map((code) => `\`${code}\``).join(', '),
        content: {
          [PROBLEM_MEDIA_TYPE]: {
            schema: {
              allOf: [{ $ref: getSchemaPath(ProblemResponse) }, { type: 'object', properties: { status: { enum: [status] }, problem: { enum: codes } } }],
            },
          },
        },
      }),
    ),
  );
}
