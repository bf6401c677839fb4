import type { ClaimOutcome, IdempotencyClaim, IdempotencyStore } from '@tally/cells';
import { awaitClaim } from './await-claim';

const claim: IdempotencyClaim = {
  scope: 'operator POST /v1/operator/tenants',
  key: 'k',
  fingerprint: 'f',
  now: new Date('2026-05-01T10:00:00.000Z'),
  expiresAt: new Date('2026-05-02T10:00:00.000Z'),
  lockedUntil: new Date('2026-05-01T10:01:00.000Z'),
};

/** A store that answers the given outcomes in turn, and counts the claims. */
function storeAnswering(...outcomes: ClaimOutcome[]) {
  const claims: IdempotencyClaim[] = [];
  const store = {
    claim: async (asked: IdempotencyClaim) => {
      claims.push(asked);
      return outcomes[Math.min(claims.length, outcomes.length) - 1];
    },
  } as IdempotencyStore;
  return { store, claims };
}

describe('awaitClaim', () => {
  it('answers at once what the first claim gets when the key is not running', async () => {
    const { store, claims } = storeAnswering({ outcome: 'new', token: 't' });
    await expect(awaitClaim(store, () => claim, { pollMs: 1, maxPolls: 5 })).resolves.toEqual({ outcome: 'new', token: 't' });
    expect(claims).toHaveLength(1);
  });

  it('asks again while the key runs, with a fresh claim each time, until it gets an answer', async () => {
    const { store, claims } = storeAnswering({ outcome: 'in_progress' }, { outcome: 'in_progress' }, { outcome: 'completed', response: { status: 200, headers: {}, body: null }, sameBody: true });
    let asked = 0;
    const outcome = await awaitClaim(store, () => ({ ...claim, key: `k${++asked}` }), { pollMs: 1, maxPolls: 5 });
    expect(outcome).toMatchObject({ outcome: 'completed' });
    expect(claims.map((c) => c.key)).toEqual(['k1', 'k2', 'k3']);
  });

  it('gives up after its polls and answers that the key is still running', async () => {
    const { store, claims } = storeAnswering({ outcome: 'in_progress' });
    await expect(awaitClaim(store, () => claim, { pollMs: 1, maxPolls: 3 })).resolves.toEqual({ outcome: 'in_progress' });
    expect(claims).toHaveLength(4);
  });
});
