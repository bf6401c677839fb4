import { Logger, type CallHandler } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import Database from 'better-sqlite3';
import type { Request, Response } from 'express';
import { defer, firstValueFrom, of, throwError } from 'rxjs';
import { DomainError, ManualClock } from '@tally/kernel';
import type { ReadStore } from '@tally/readstore';
import { CellRegistry, DerivedKeys, ListCursors, SqliteIdempotencyStore, type IdempotencyStore } from '@tally/cells';
import { IdempotencyInterceptor } from './idempotency.interceptor';

const KEY = '4f1c1a0e-93a4-4c3b-9a53-0d1f8d7b2e11';
const tenant = { id: 'ten_1', object: 'tenant', name: 'Acme' };

/** The operator route needs no tenant context, so the interceptor can be driven without the auth guard. */
function harness(store: IdempotencyStore = new SqliteIdempotencyStore(new Database(':memory:'))) {
  const interceptor = new IdempotencyInterceptor(new CellRegistry(new Map(), {} as ReadStore, store, ListCursors.derive(Buffer.alloc(32), 'directory'), new DerivedKeys(Buffer.alloc(32))), new ManualClock('2026-05-01T10:00:00.000Z'));
  const send = (handler: CallHandler, body: object = { name: 'Acme', region: 'eu' }) => {
    const request = { method: 'POST', path: '/v1/operator/tenants', headers: { 'idempotency-key': KEY }, body } as unknown as Request;
    const headers = new Map<string, unknown>();
    const response = {
      statusCode: 200,
      status(code: number) {
        this.statusCode = code;
        return this;
      },
      setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), value),
      getHeader: (name: string) => headers.get(name.toLowerCase()),
    };
    const served = firstValueFrom(interceptor.intercept(new ExecutionContextHost([request, response as unknown as Response]), handler));
    return { served, response, headers };
  };
  return { send };
}

/** A handler that counts its runs and answers when told to. */
function slowHandler(answer: () => Promise<unknown>) {
  let runs = 0;
  const handler: CallHandler = {
    handle: () =>
      defer(() => {
        runs += 1;
        return answer();
      }),
  };
  return { handler, runs: () => runs };
}

const never: CallHandler = {
  handle: () => {
    throw new Error('the request ran again');
  },
};

describe('IdempotencyInterceptor', () => {
  it('lets a request that arrives while the first one runs wait for its answer', async () => {
    const { send } = harness();
    let finish!: (body: unknown) => void;
    const first = slowHandler(() => new Promise((resolve) => (finish = resolve)));
    const running = send(first.handler);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const waiting = send(never);
    await new Promise((resolve) => setTimeout(resolve, 60));
    finish(tenant);
    await expect(running.served).resolves.toEqual(tenant);
    await expect(waiting.served).resolves.toEqual(tenant);
    expect(waiting.response.statusCode).toBe(200);
    expect(waiting.headers.get('idempotent-replayed')).toBe('true');
    expect(first.runs()).toBe(1);
  });

  it('lets the waiting request run when the first one is refused before it ran', async () => {
    const { send } = harness();
    let refuse!: () => void;
    const first = slowHandler(() => new Promise((_resolve, reject) => (refuse = () => reject(DomainError.invalid('request.invalid_body', 'bad')))));
    const running = send(first.handler);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = slowHandler(async () => tenant);
    const waiting = send(second.handler);
    refuse();
    await expect(running.served).rejects.toMatchObject({ code: 'request.invalid_body' });
    await expect(waiting.served).resolves.toEqual(tenant);
    expect(waiting.headers.get('idempotent-replayed')).toBeUndefined();
    expect(second.runs()).toBe(1);
  });

  it('stores a failure of the endpoint, 500 included, and replays it as problem+json', async () => {
    const { send } = harness();
    await expect(send({ handle: () => throwError(() => new Error('boom')) }).served).rejects.toThrow('boom');
    const retry = send(never);
    await expect(retry.served).resolves.toMatchObject({ status: 500, problem: 'internal.error' });
    expect(retry.response.statusCode).toBe(500);
    expect(retry.headers.get('content-type')).toBe('application/problem+json');
  });

  it('frees the key after a write that lost to concurrent writes', async () => {
    const { send } = harness();
    const conflict = DomainError.conflict('request.concurrent_update', 'again');
    await expect(send({ handle: () => throwError(() => conflict) }).served).rejects.toBe(conflict);
    await expect(send({ handle: () => of(tenant) }).served).resolves.toEqual(tenant);
  });

  it('answers the request even when its response cannot be stored, and logs that', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const store = new SqliteIdempotencyStore(new Database(':memory:'));
    store.complete = () => Promise.reject(new Error('disk full'));
    const { send } = harness(store);
    await expect(send({ handle: () => of(tenant) }).served).resolves.toEqual(tenant);
    expect(logged).toHaveBeenCalledWith('Storing an idempotent response failed', expect.stringContaining('disk full'));
    logged.mockRestore();
  });
});
