/** The pure parts of the subscriptions domain that other contexts' domains may use. */
export { periodAt, type Cadence, type Interval, type Period } from './domain/billing-cycle';
