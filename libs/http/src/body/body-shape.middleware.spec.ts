import type { Request, Response } from 'express';
import { EdgeProblem } from '../problems/problem';
import { bodyShapeMiddleware, MAX_BODY_DEPTH, verifyUtf8 } from './body-shape.middleware';

const nested = (depth: number): unknown => Array.from({ length: depth }).reduce<unknown>((inner) => ({ a: inner }), 1);

/** Passed on, or refused with the problem the middleware hands to the ProblemFilter. */
function run(body: unknown, request: object = {}): { passed: boolean; status?: number; problem?: string } {
  let outcome: { passed: boolean; status?: number; problem?: string } = { passed: false };
  bodyShapeMiddleware(Object.assign(request, { body }) as Request, {} as Response, (error?: unknown) => {
    outcome = error instanceof EdgeProblem ? { passed: false, status: error.status, problem: error.code } : { passed: error === undefined };
  });
  return outcome;
}

/** As the edge runs it: body-parser's verify hook sees the bytes, then the middleware the parsed body. */
function runRaw(raw: string): ReturnType<typeof run> {
  const request = {};
  const bytes = Buffer.from(raw);
  verifyUtf8(request, undefined, bytes);
  return run(JSON.parse(bytes.toString()), request);
}

describe('bodyShapeMiddleware', () => {
  it('passes bodies up to the limit, however wide', () => {
    expect(run(nested(MAX_BODY_DEPTH)).passed).toBe(true);
    expect(run(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, { v: [i] }]))).passed).toBe(true);
    expect(run(undefined).passed).toBe(true);
  });

  it('refuses a body that is JSON but not an object', () => {
    for (const body of ['hi', null, 42, true, [1, 2]]) expect(run(body)).toEqual({ passed: false, status: 400, problem: 'request.invalid_body' });
  });

  it('refuses NUL characters and unpaired surrogates in strings and keys, at any depth', () => {
    for (const text of ['a\u0000b', '\ud800', 'x\udc00', '\udc00\ud800']) {
      expect(run({ name: text })).toEqual({ passed: false, status: 400, problem: 'request.invalid_body' });
      expect(run({ metadata: { [text]: 'v' } })).toEqual({ passed: false, status: 400, problem: 'request.invalid_body' });
      expect(run({ lines: [{ description: ['ok', text] }] })).toEqual({ passed: false, status: 400, problem: 'request.invalid_body' });
    }
  });

  it('passes well-formed text, surrogate pairs included', () => {
    expect(run({ name: 'Zoë 😀 日本', metadata: { '😀': '\ud83d\ude00' } }).passed).toBe(true);
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(() => verifyUtf8({}, undefined, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]))).toThrow(/UTF-8/);
    expect(() => verifyUtf8({}, undefined, Buffer.from('{"name":"Zoë"}'))).not.toThrow();
  });

  it('checks the text of a body whose bytes hold a \\u escape, as parsed from them', () => {
    for (const [raw, passed] of [['{"name":"a\\u0000b"}', false], ['{"name":"\\ud800"}', false], ['{"name":"\\ud83d\\ude00 \\u00e9"}', true], ['{"name":"Zoë 😀"}', true]] as const) {
      expect(runRaw(raw).passed).toBe(passed);
    }
  });

  it('holds a body without escapes to the same depth, arrays and objects alike', () => {
    const inArrays = (depth: number): unknown => Array.from({ length: depth }).reduce<unknown>((inner, _, i) => (i % 2 === 0 ? [inner] : { a: inner, b: 'x' }), null);
    for (const body of [nested(MAX_BODY_DEPTH), inArrays(MAX_BODY_DEPTH), { wide: Array.from({ length: 1000 }, (_, i) => ({ i, v: [i] })) }]) {
      expect(runRaw(JSON.stringify(body)).passed).toBe(true);
    }
    for (const body of [nested(MAX_BODY_DEPTH + 1), inArrays(MAX_BODY_DEPTH + 1), { events: [{ ok: 1 }, nested(MAX_BODY_DEPTH)] }]) {
      expect(runRaw(JSON.stringify(body))).toEqual({ passed: false, status: 400, problem: 'request.invalid_body' });
    }
  });

  it('refuses deeper bodies with request.invalid_body, without overflowing on very deep ones', () => {
    expect(run(nested(MAX_BODY_DEPTH + 1))).toEqual({ passed: false, status: 400, problem: 'request.invalid_body' });
    expect(run(nested(200_000))).toEqual({ passed: false, status: 400, problem: 'request.invalid_body' });
  });
});
