import { EVENT_TYPES_INTRODUCED, existsInVersion } from './event-type-versions';

describe('existsInVersion', () => {
  it('has wallet events from 2025-10-01 on, when wallets came', () => {
    expect(['2024-10-01', '2025-04-01', '2025-09-30', '2025-10-01', '2026-04-01'].map((version) => existsInVersion('wallet.credited', version))).toEqual([false, false, false, true, true]);
    expect(existsInVersion('wallet.below_drift_floor', '2025-04-01')).toBe(false);
  });

  it('has every other type in every version', () => {
    expect(['invoice.paid', 'customer.created', 'webhook_endpoint.delivery_failed'].map((type) => existsInVersion(type, '2024-10-01'))).toEqual([true, true, true]);
  });

  it('reads a prefix as a whole category: a type that only starts like one is not in it', () => {
    expect(existsInVersion('wallets_report.ready', '2024-10-01')).toBe(true);
    expect(EVENT_TYPES_INTRODUCED.every(({ prefix }) => prefix.endsWith('.'))).toBe(true);
  });
});
