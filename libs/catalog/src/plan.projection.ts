import { resourceProjection } from '@tally/runtime';
import { PLAN_INDEXES } from './plan.queries';
import { planView } from './plan.view';

/** The plans read model and the plans' entries in the public event log. */
export const planProjection = resourceProjection(planView, PLAN_INDEXES);
