import type { CallHandler } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { Request, Response } from 'express';
import { firstValueFrom, of } from 'rxjs';
import { ApiVersionInterceptor } from './api-version.interceptor';
import { resolveApiVersion } from './request-version';

const invoice = { id: 'inv_1', object: 'invoice', tax: '0.00', payments: ['pay_1'] };

async function serve(header: string | undefined, body: unknown) {
  const headers = new Map<string, unknown>();
  const response = { setHeader: (name: string, value: unknown) => headers.set(name, value) } as unknown as Response;
  // Auth resolves the version and names it on the response; the interceptor serves the body in it.
  const request = { headers: header ? { 'service-version': header } : {}, res: response } as Request;
  resolveApiVersion(request, undefined);
  const handler: CallHandler = { handle: () => of(body) };
  const served = await firstValueFrom(new ApiVersionInterceptor().intercept(new ExecutionContextHost([request, response]), handler));
  return { served, version: headers.get('Service-Version') };
}

describe('ApiVersionInterceptor', () => {
  it('serves the current version unchanged and says so', async () => {
    expect(await serve(undefined, invoice)).toEqual({ served: invoice, version: '2026-04-01' });
  });

  it('downgrades the body to the request’s version and says so', async () => {
    expect(await serve('2024-10-01', invoice)).toEqual({ served: { id: 'inv_1', object: 'invoice', payments: 'pay_1' }, version: '2024-10-01' });
  });
});
