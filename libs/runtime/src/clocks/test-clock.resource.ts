import { defineResource, scopedIndex } from '../resources/resource';
import { testClockAggregate } from './test-clock.aggregate';

/** Sandbox test clocks through the API: their read model, retrieve (with `as_of`) and list, newest first. */
export const testClockResource = defineResource({
  aggregate: testClockAggregate,
  indexes: [scopedIndex('created_at')],
  list: { sortable: ['created_at'], filters: {} },
});
