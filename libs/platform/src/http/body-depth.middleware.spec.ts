import type { Request, Response } from 'express';
import { bodyDepthMiddleware, MAX_BODY_DEPTH } from './body-depth.middleware';

const nested = (depth: number): unknown => Array.from({ length: depth }).reduce<unknown>((inner) => ({ a: inner }), 1);

function run(body: unknown): { passed: boolean; status?: number; problem?: string } {
  let answer: { status?: number; problem?: string } = {};
  const response = {
    status(status: number) {
      answer.status = status;
      return this;
    },
    type() {
      return this;
    },
    json(sent: { problem: string }) {
      answer = { ...answer, problem: sent.problem };
      return this;
    },
  } as unknown as Response;
  let passed = false;
  bodyDepthMiddleware({ body } as Request, response, () => (passed = true));
  return { passed, ...answer };
}

describe('bodyDepthMiddleware', () => {
  it('passes bodies up to the limit, however wide', () => {
    expect(run(nested(MAX_BODY_DEPTH)).passed).toBe(true);
    expect(run(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, { v: [i] }]))).passed).toBe(true);
    expect(run(undefined).passed).toBe(true);
  });

  it('refuses deeper bodies with request.invalid_body, without overflowing on very deep ones', () => {
    expect(run(nested(MAX_BODY_DEPTH + 1))).toEqual({ passed: false, status: 400, problem: 'request.invalid_body' });
    expect(run(nested(200_000))).toEqual({ passed: false, status: 400, problem: 'request.invalid_body' });
  });
});
