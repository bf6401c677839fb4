import { catalogueInVersion, eventCatalogue, isEventFilter, matchesEventFilter } from './event-types';

describe('event filters', () => {
  const catalogue = eventCatalogue(['invoice.paid', 'tax.settings.updated']);

  it('takes `*`, the types of the catalogue, and the `category.*` patterns of their categories', () => {
    expect(['*', 'invoice.paid', 'tax.settings.updated', 'invoice.*', 'tax.*'].filter((entry) => !isEventFilter(entry, catalogue))).toEqual([]);
  });

  it('refuses a type or a category the catalogue does not hold', () => {
    expect(['invoice.voided', 'customer.*', 'customer.created', 'tax.settings.*', '', '.*'].filter((entry) => isEventFilter(entry, catalogue))).toEqual([]);
  });

  it('takes the spec’s `service.*` notices whatever the catalogue', () => expect(isEventFilter('service.*', eventCatalogue([]))).toBe(true));

  it('matches a type by an exact entry, its category or `*`', () => {
    expect(['invoice.paid', 'invoice.*', '*'].map((entry) => matchesEventFilter([entry], 'invoice.paid'))).toEqual([true, true, true]);
    expect(matchesEventFilter(['invoice.voided', 'customer.*'], 'invoice.paid')).toBe(false);
  });

  it('knows in a version before 2025-10-01 neither the wallet events nor their category; `*` and the other types stay', () => {
    const withWallets = eventCatalogue(['invoice.paid', 'wallet.credited', 'wallet.debited']);
    const entries = ['*', 'invoice.paid', 'invoice.*', 'wallet.credited', 'wallet.*', 'service.*'];
    expect(entries.filter((entry) => isEventFilter(entry, catalogueInVersion(withWallets, '2025-04-01')))).toEqual(['*', 'invoice.paid', 'invoice.*', 'service.*']);
    expect(entries.filter((entry) => isEventFilter(entry, catalogueInVersion(withWallets, '2025-10-01')))).toEqual(entries);
  });
});
