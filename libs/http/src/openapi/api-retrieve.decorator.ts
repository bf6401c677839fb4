import { applyDecorators, type Type } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import type { HeadersObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ApiProblemResponses } from './api-problem-responses.decorator';
import { INSTANT_SCHEMA } from './field-schemas';
import { API_KEY_PROBLEMS, type ProblemCodes } from './problem-codes';

export interface RetrieveRoute {
  /** What the resource is called in prose: `customer`, `payment method`. */
  noun: string;
  summary: string;
  description: string;
  type: Type;
  /** The response's headers (its ETag), if it has any. */
  headers?: HeadersObject;
  /** Its problems beyond the API key's and `as_of`'s: its not-found code at least. */
  problems: ProblemCodes;
  /** Where the route is not a method of its resource's own controller: the operation id it keeps. */
  operationId?: string;
}

/** Documents a retrieve: the resource, `as_of`, and its problems. */
export const ApiRetrieve = ({ noun, summary, description, type, headers, problems, operationId }: RetrieveRoute): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary, description, ...(operationId && { operationId }) }),
    ApiOkResponse({ type, ...(headers && { headers }) }),
    ApiAsOf(noun),
    ApiProblemResponses(API_KEY_PROBLEMS, { 400: ['request.invalid_parameter'] }, problems),
  );

/** The `as_of` parameter of a retrieve: the resource rebuilt from its events as it was at that moment (404 before it existed). */
export const ApiAsOf = (noun: string): MethodDecorator =>
  ApiQuery({ name: 'as_of', required: false, schema: INSTANT_SCHEMA, description: `Rebuild the ${noun} from its events as it was at this moment: a date (midnight UTC) or a timestamp with its time zone` });
