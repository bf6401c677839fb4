import { setTimeout as sleep } from 'node:timers/promises';
import type { ClaimOutcome, IdempotencyClaim, IdempotencyStore } from '@tally/cells';

export interface Patience {
  pollMs: number;
  /** How often to ask again before answering that the key is still in progress. */
  maxPolls: number;
}

/** A request that finds its key running waits up to about five seconds for the first one's answer. */
export const WAIT_FOR_RUNNING_REQUEST: Patience = { pollMs: 25, maxPolls: 200 };

/** Claims a key; while another request holds it, asks again (with a fresh claim, for a fresh "now"). */
export async function awaitClaim(store: IdempotencyStore, claimNow: () => IdempotencyClaim, patience: Patience): Promise<ClaimOutcome> {
  for (let polls = 0; ; polls++) {
    const outcome = await store.claim(claimNow());
    if (outcome.outcome !== 'in_progress' || polls === patience.maxPolls) return outcome;
    await sleep(patience.pollMs);
  }
}
