import { applyDecorators, HttpCode, type Type } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody } from '@nestjs/swagger';
import { API_KEY_PROBLEMS, ApiIdempotent, ApiProblemResponses, IDEMPOTENT_PROBLEMS, type ProblemCodes } from '@tally/http';

/** A route that takes usage and answers 202 once stored: its body, its answer, and its refusals with the idempotency key's. */
export const ApiUsageAccepted = (body: Type, answer: Type, problems: ProblemCodes): MethodDecorator =>
  // In the order they would be written above the method, which applies the last first.
  applyDecorators(ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, problems), ApiIdempotent(), ApiAcceptedResponse({ type: answer }), ApiBody({ type: body }), HttpCode(202));
