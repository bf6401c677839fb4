import { EDGE_API_SECTIONS, EVENTS_SECTION, HEALTH_SECTION } from './edge-api-sections';
import { referenceSections } from './api-tags';

describe('the sections of the API reference', () => {
  const first = { name: 'customers', description: 'The people you bill', order: 10 };
  const between = { name: 'wallets', description: 'Prepaid balances', order: 105 };

  it('puts the contexts’ and the API’s own in the order they declare', () => {
    const names = referenceSections([between, first]).map((section) => section.name);
    expect(names).toEqual(['customers', EVENTS_SECTION.name, 'wallets', ...EDGE_API_SECTIONS.slice(1).map((section) => section.name)]);
  });

  it('refuses two sections of one name or one place', () => {
    expect(() => referenceSections([first, { ...first, order: 11 }])).toThrow(/name customers/);
    expect(() => referenceSections([first, { ...between, order: HEALTH_SECTION.order }])).toThrow(/order 150/);
  });
});
