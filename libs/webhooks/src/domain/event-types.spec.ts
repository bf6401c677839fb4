import { eventCatalogue, existsInVersion, isEventFilter, matchesEventFilter } from './event-types';

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

  it('keeps wallet events from endpoints pinned before 2025-10-01, when wallets did not exist', () => {
    expect(['2024-10-01', '2025-04-01', '2025-10-01', '2026-04-01'].map((version) => existsInVersion('wallet.credited', version))).toEqual([false, false, true, true]);
    expect(existsInVersion('invoice.paid', '2024-10-01')).toBe(true);
  });
});
