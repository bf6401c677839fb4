import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Request } from 'express';
import { invalidParameter } from '@tally/runtime';

/** The query parameters a handler reads by name, or `any` where it takes the whole query and checks it itself (lists, signed links). */
type TakenParameters = ReadonlySet<string> | 'any';

interface RouteArgument {
  data?: unknown;
}

/**
 * Refuses query parameters a route does not take (400 `request.invalid_parameter`), as unknown
 * body fields are refused: a route takes those it reads with `@Query('name')`. It runs after the
 * rate limit, so a refusal counts like any other.
 */
@Injectable()
export class QueryParametersGuard implements CanActivate {
  private readonly byHandler = new WeakMap<object, TakenParameters>();

  canActivate(execution: ExecutionContext): boolean {
    if (execution.getType() !== 'http') return true;
    const names = Object.keys(execution.switchToHttp().getRequest<Request>().query ?? {});
    if (names.length === 0) return true;
    const taken = this.takenBy(execution);
    if (taken === 'any') return true;
    const unknown = names.find((name) => !taken.has(name));
    if (unknown === undefined) return true;
    const takes = taken.size === 0 ? 'it takes no query parameters' : `it takes ${[...taken].join(', ')}`;
    throw invalidParameter(unknown, `Unknown parameter ${unknown}: ${takes}`);
  }

  private takenBy(execution: ExecutionContext): TakenParameters {
    const handler = execution.getHandler();
    const known = this.byHandler.get(handler);
    if (known) return known;
    const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, execution.getClass(), handler.name) ?? {}) as Record<string, RouteArgument>;
    const queries = Object.entries(args).filter(([key]) => key.split(':')[0] === String(RouteParamtypes.QUERY));
    const taken: TakenParameters = queries.some(([, argument]) => typeof argument.data !== 'string') ? 'any' : new Set(queries.map(([, argument]) => argument.data as string));
    this.byHandler.set(handler, taken);
    return taken;
  }
}
