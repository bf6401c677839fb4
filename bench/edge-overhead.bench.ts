import { randomUUID } from 'node:crypto';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { lastValueFrom, of } from 'rxjs';
import type { Clock } from '@tally/kernel';
import { AuthGuard, IdempotencyInterceptor, RATE_LIMIT_STORE, type RateLimitStore } from '@tally/http';
import { CellRegistry, CLOCK, TALLY_CONFIG, type TallyConfig } from '@tally/cells';
import { RateLimitGuard } from '@tally/http/rate-limits/rate-limit.guard';
import { startTally } from './support/tally-server';

/** One request's worth of HTTP context, as much as the guards and the interceptor read. */
function httpContext(key: string, idempotencyKey?: string): ExecutionContext {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...(idempotencyKey && { 'idempotency-key': idempotencyKey }) };
  const request = { method: 'POST', path: '/v1/customers', url: '/v1/customers', headers, body: { email: 'ada@example.com' } };
  const sent = new Map<string, unknown>();
  const response = {
    statusCode: 200,
    setHeader: (name: string, value: unknown) => sent.set(name.toLowerCase(), value),
    getHeader: (name: string) => sent.get(name.toLowerCase()),
    status(code: number) {
      this.statusCode = code;
      return this;
    },
  };
  const http = { getRequest: () => request, getResponse: () => response };
  return { getType: () => 'http', switchToHttp: () => http } as unknown as ExecutionContext;
}

const handler: CallHandler = { handle: () => of({ id: 'cus_bench' }) };

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function microsecondsPerCall(calls: number, call: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 500; i++) await call(-1 - i);
  const started = performance.now();
  for (let i = 0; i < calls; i++) await call(i);
  return ((performance.now() - started) * 1000) / calls;
}

/**
 * What authentication, rate limiting and Idempotency-Key add to one request, in µs: the real
 * guard and interceptor objects of a running Tally (embedded profile) called in a loop, against a
 * baseline that builds the same request context and does nothing else.
 */
export async function runEdgeOverheadBench(calls = 20_000): Promise<string> {
  const tally = await startTally();
  try {
    const app = tally.app;
    const auth = new AuthGuard(app.get(CellRegistry), app.get<TallyConfig>(TALLY_CONFIG));
    const limits = new RateLimitGuard(app.get<RateLimitStore>(RATE_LIMIT_STORE), app.get<Clock>(CLOCK));
    const idempotency = new IdempotencyInterceptor(app.get(CellRegistry), app.get<Clock>(CLOCK));
    const key = tally.sandboxKey;
    const replayKey = randomUUID();
    const authenticated = async (idempotencyKey?: string) => {
      const context = httpContext(key, idempotencyKey);
      await auth.canActivate(context);
      return context;
    };

    const cases: Record<string, () => Promise<unknown>> = {
      baseline: async () => httpContext(key),
      auth: () => authenticated(),
      limits: async () => limits.canActivate(await authenticated()),
      handler: async () => lastValueFrom((await authenticated(), handler.handle())),
      noKey: async () => lastValueFrom(idempotency.intercept(await authenticated(), handler)),
      newKey: async () => lastValueFrom(idempotency.intercept(await authenticated(randomUUID()), handler)),
      replay: async () => lastValueFrom(idempotency.intercept(await authenticated(replayKey), handler)),
    };
    const rounds: Record<string, number[]> = {};
    for (let round = 0; round < 3; round++) {
      for (const [name, call] of Object.entries(cases)) (rounds[name] ??= []).push(await microsecondsPerCall(calls, call));
    }
    const us = Object.fromEntries(Object.entries(rounds).map(([name, runs]) => [name, median(runs)]));
    const rows: [string, number][] = [
      ['baseline: build the request context, nothing else', us.baseline],
      ['+ API-key authentication (key hash, cached directory entry, version resolution)', us.auth - us.baseline],
      ['+ rate limiting (classify, cached limits, sliding window, headers)', us.limits - us.auth],
      ['+ idempotency interceptor, no Idempotency-Key header', us.noKey - us.handler],
      ['+ idempotency, a new key (claim, store the response: two writes)', us.newKey - us.handler],
      ['+ idempotency, a replayed key (read and decrypt the stored response)', us.replay - us.handler],
    ];

    return ['| Case | µs per request |', '|---|---:|', ...rows.map(([name, us]) => `| ${name} | ${us < 1 ? '< 1' : us.toFixed(1)} |`)].join('\n');
  } finally {
    await tally.close();
  }
}

if (require.main === module) {
  runEdgeOverheadBench().then((table) => process.stdout.write(`${table}\n`));
}
