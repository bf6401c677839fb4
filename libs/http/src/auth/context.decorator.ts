import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { contextOf } from './auth.guard';

/** The authenticated request's tenant, environment, region and actor. */
export const Ctx = createParamDecorator((_: unknown, execution: ExecutionContext) => contextOf(execution.switchToHttp().getRequest<Request>()));
