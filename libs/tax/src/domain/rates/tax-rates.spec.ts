import Big from 'big.js';
import { periodInForce } from '../jurisdictions';
import { TAX_TABLE } from './tax-rates';

const EU_MEMBERS = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
  'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
];
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const PERCENT = /^\d{1,2}(?:\.\d{1,3})?$/;

const byId = (id: string) => TAX_TABLE.jurisdictions.find((j) => j.id === id)!;

describe('TAX_TABLE', () => {
  it('is versioned by a day', () => {
    expect(TAX_TABLE.version).toMatch(DAY);
  });

  it('lists the 27 EU member states as EU VAT jurisdictions, and no other', () => {
    const eu = TAX_TABLE.jurisdictions.filter((j) => j.eu);
    expect(eu.map((j) => j.id).sort()).toEqual(EU_MEMBERS);
    expect(eu.every((j) => j.tax_type === 'vat' && j.region === null)).toBe(true);
  });

  it('names each jurisdiction once, as its country or country-region', () => {
    const ids = TAX_TABLE.jurisdictions.map((j) => j.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const j of TAX_TABLE.jurisdictions) {
      expect(j.id).toBe(j.region === null ? j.country : `${j.country}-${j.region}`);
      expect(j.country_tax === null).toBe(j.region === null);
    }
  });

  it('gives every region a country entry', () => {
    for (const j of TAX_TABLE.jurisdictions.filter((r) => r.region !== null)) {
      expect(byId(j.country)).toBeDefined();
    }
  });

  it('has periods in date order, rates as percent strings, reduced below standard', () => {
    for (const j of TAX_TABLE.jurisdictions) {
      expect(j.periods.length).toBeGreaterThan(0);
      j.periods.forEach((period, i) => {
        expect(period.from).toMatch(DAY);
        if (i > 0) expect(period.from > j.periods[i - 1].from).toBe(true);
        expect(period.standard).toMatch(PERCENT);
        if (period.reduced !== null) {
          expect(period.reduced).toMatch(PERCENT);
          expect(new Big(period.reduced).lt(period.standard)).toBe(true);
        }
      });
    }
  });

  it('rounds half up only where the rules say so', () => {
    const halfUp = TAX_TABLE.jurisdictions.filter((j) => j.rounding === 'half_up').map((j) => j.id);
    expect(halfUp.sort()).toEqual(['AU', 'CA-QC', 'DE']);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(TAX_TABLE.jurisdictions)).toBe(true);
    expect(Object.isFrozen(byId('DE').periods[0])).toBe(true);
  });

  it.each([
    ['CZ', '2023-12-31', '21', '15'],
    ['CZ', '2024-01-01', '21', '12'],
    ['EE', '2023-12-31', '20', '9'],
    ['EE', '2024-01-01', '22', '9'],
    ['EE', '2025-07-01', '24', '9'],
    ['FI', '2024-08-31', '24', '14'],
    ['FI', '2024-09-01', '25.5', '14'],
    ['FI', '2026-01-01', '25.5', '13.5'],
    ['IE', '2021-02-28', '21', '13.5'],
    ['IE', '2021-03-01', '23', '13.5'],
    ['LT', '2025-12-31', '21', '9'],
    ['LT', '2026-01-01', '21', '12'],
    ['LU', '2023-06-30', '16', '7'],
    ['LU', '2024-01-01', '17', '8'],
    ['RO', '2025-07-31', '19', '9'],
    ['RO', '2025-08-01', '21', '11'],
    ['SK', '2024-12-31', '20', '10'],
    ['SK', '2025-01-01', '23', '5'],
    ['CH', '2023-12-31', '7.7', '2.5'],
    ['CH', '2024-01-01', '8.1', '2.6'],
    ['CA-NS', '2025-03-31', '15', null],
    ['CA-NS', '2025-04-01', '14', null],
  ])('%s on %s: %s %% standard, %s %% reduced', (id, day, standard, reduced) => {
    expect(periodInForce(byId(id), day)).toEqual({ from: expect.any(String), standard, reduced });
  });
});
