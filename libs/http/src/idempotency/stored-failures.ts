import type { ProblemBody } from '../problems/problem';

/**
 * Whether a failed request's answer is kept for its key. As Stripe does, once the endpoint ran its
 * result is kept, failures too, 500 included: what a failed run did is unknown, so a retry must not
 * run it again. Refusals before anything ran are not kept, which frees the key for a corrected
 * retry: parameters that failed validation (400), throttling (429), and a write that kept losing to
 * concurrent writes (`request.concurrent_update`).
 */
export const isStoredFailure = (problem: ProblemBody): boolean =>
  problem.status !== 400 && problem.status !== 429 && problem.problem !== 'request.concurrent_update';
