import { resourceProjection } from '@tally/runtime';
import { CUSTOMER_INDEXES } from './customer.queries';
import { customerView } from './customer.view';

/** The customers read model and the customers' entries in the public event log. */
export const customerProjection = resourceProjection(customerView, CUSTOMER_INDEXES);
