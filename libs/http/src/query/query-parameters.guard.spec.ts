import { Query, type ExecutionContext } from '@nestjs/common';
import { QueryParametersGuard } from './query-parameters.guard';

class Routes {
  retrieve(@Query('as_of') _asOf: unknown): void {}
  list(@Query() _params: Record<string, unknown>): void {}
  create(): void {}
}

const execution = (handler: keyof Routes, query: Record<string, string>): ExecutionContext =>
  ({
    getType: () => 'http',
    getClass: () => Routes,
    getHandler: () => Routes.prototype[handler],
    switchToHttp: () => ({ getRequest: () => ({ query }) }),
  }) as unknown as ExecutionContext;

const refusedNaming = (field: string) => expect.objectContaining({ code: 'request.invalid_parameter', fields: [expect.objectContaining({ field })] });

describe('QueryParametersGuard', () => {
  const guard = new QueryParametersGuard();

  it('passes the parameters a route reads by name, and any to a route that takes the whole query', () => {
    expect(guard.canActivate(execution('retrieve', { as_of: '2026-01-01' }))).toBe(true);
    expect(guard.canActivate(execution('list', { status: 'open', anything: 'x' }))).toBe(true);
    expect(guard.canActivate(execution('create', {}))).toBe(true);
  });

  it('refuses, by name, a parameter the route does not read', () => {
    expect(() => guard.canActivate(execution('retrieve', { as_of: '2026-01-01', expand: 'x' }))).toThrow(refusedNaming('expand'));
    expect(() => guard.canActivate(execution('create', { debug: '1' }))).toThrow(refusedNaming('debug'));
  });
});
