import { applyDecorators, type Type } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { HeadersObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ApiIfMatch } from './api-if-match.decorator';
import { ApiProblemResponses } from './api-problem-responses.decorator';
import { API_KEY_PROBLEMS, type ProblemCodes } from './problem-codes';

/** What an `If-Match` refuses: a header that is no ETag, and a resource changed since. */
export const IF_MATCH_PROBLEMS: ProblemCodes = { 400: ['request.invalid_if_match'], 412: ['request.precondition_failed'] };

/** Documents an update that takes `If-Match`: the resource it answers with its ETag, the header, and its problems with those of `If-Match`. */
export const ApiUpdate = (noun: string, answer: { type: Type; headers: HeadersObject }, ...problems: readonly ProblemCodes[]): MethodDecorator =>
  // In the order they would be written above the method, which applies the last first.
  applyDecorators(ApiProblemResponses(API_KEY_PROBLEMS, ...problems, IF_MATCH_PROBLEMS), ApiIfMatch(noun), ApiOkResponse(answer));
