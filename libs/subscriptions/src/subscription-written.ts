import type { CommandOutcome } from '@tally/runtime';
import type { SubscriptionResource } from './subscription.view';

/** A subscription as a command left it, with the revision for its ETag. */
export interface SubscriptionWritten {
  subscription: SubscriptionResource;
  revision: number;
}

export const written = ({ resource, revision }: CommandOutcome<unknown, SubscriptionResource>): SubscriptionWritten => ({ subscription: resource!, revision });
