import { EVENT_TYPES_INTRODUCED } from '@tally/kernel';
import type { Condition } from '@tally/readstore';
import { isApiVersion } from '../versions/api-versions';
import { eventTypeConditions, laterTypesLeftOut } from './event-type-filter';

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

describe('laterTypesLeftOut', () => {
  const types = ['invoice.paid', 'wallet.credited', 'wallet.debited'];

  it('leaves out, in a version before 2025-10-01, the wallet events of the catalogue', () => {
    expect(laterTypesLeftOut(types, '2025-04-01')).toEqual([type('nin', ['wallet.credited', 'wallet.debited'])]);
    expect(laterTypesLeftOut(types, '2024-10-01')).toEqual([type('nin', ['wallet.credited', 'wallet.debited'])]);
  });

  it('names an API version for each family of types that came later', () => expect(EVENT_TYPES_INTRODUCED.filter(({ since }) => !isApiVersion(since))).toEqual([]));

  it('adds no condition to a version that knows every type', () => {
    expect(laterTypesLeftOut(types, '2025-10-01')).toEqual([]);
    expect(laterTypesLeftOut(types, '2026-04-01')).toEqual([]);
  });
});
