import type { Condition } from '@tally/readstore';
import { eventTypeConditions } from './event-type-filter';

const KNOWN = new Set(['customer.created', 'customer.updated', 'invoice.paid']);
const isKnown = (entry: string) => entry === '*' || KNOWN.has(entry) || (entry.endsWith('.*') && [...KNOWN].some((type) => type.startsWith(entry.slice(0, -1))));
const type = (op: Condition['op'], value: Condition['value']): Condition => ({ field: 'type', op, value });

const refused = (code: string) => expect.objectContaining({ code });

describe('eventTypeConditions', () => {
  it('keeps exact types, one or several, and prefixes', () => {
    for (const condition of [type('eq', 'invoice.paid'), type('in', ['invoice.paid', 'customer.created']), type('starts', 'cust')]) {
      expect(eventTypeConditions(condition, isKnown)).toEqual([condition]);
    }
  });

  it('reads a category as a prefix, and * as no condition at all', () => {
    expect(eventTypeConditions(type('eq', 'customer.*'), isKnown)).toEqual([type('starts', 'customer.')]);
    expect(eventTypeConditions(type('eq', '*'), isKnown)).toEqual([]);
  });

  it('refuses an unknown type or category, and a pattern among other entries', () => {
    expect(() => eventTypeConditions(type('eq', 'invoice.payed'), isKnown)).toThrow(refused('event.unknown_type'));
    expect(() => eventTypeConditions(type('eq', 'wallet.*'), isKnown)).toThrow(refused('event.unknown_type'));
    expect(() => eventTypeConditions(type('in', ['invoice.paid', 'invoice.payed']), isKnown)).toThrow(refused('event.unknown_type'));
    expect(() => eventTypeConditions(type('in', ['invoice.paid', 'customer.*']), isKnown)).toThrow(refused('request.invalid_parameter'));
  });
});
