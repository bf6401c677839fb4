import { resourceProjection } from '@tally/runtime';
import { SUBSCRIPTION_INDEXES } from './subscription.queries';
import { subscriptionView } from './subscription.view';

/** The subscriptions read model and the subscriptions' entries in the public event log. */
export const subscriptionProjection = resourceProjection(subscriptionView, SUBSCRIPTION_INDEXES);
