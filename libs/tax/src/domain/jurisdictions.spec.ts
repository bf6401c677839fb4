import { isEuMember, jurisdictionsFor, periodInForce } from './jurisdictions';
import { TAX_TABLE } from './rates/tax-rates';
import type { TaxJurisdiction } from './tax-table';

const ids = (jurisdictions: TaxJurisdiction[]) => jurisdictions.map((j) => j.id);

function jurisdiction(id: string): TaxJurisdiction {
  const found = TAX_TABLE.jurisdictions.find((j) => j.id === id);
  if (!found) throw new Error(`no ${id} in the table`);
  return found;
}

describe('isEuMember', () => {
  it.each(['DE', 'FR', 'GR', 'HR', 'IE'])('%s is a member', (country) => expect(isEuMember(country)).toBe(true));

  it.each(['GB', 'NO', 'CH', 'CA', 'US', 'EL', 'XI'])('%s is not', (country) => expect(isEuMember(country)).toBe(false));
});

describe('jurisdictionsFor', () => {
  it('a country without regions: the country', () => {
    expect(ids(jurisdictionsFor({ country: 'DE', region: null }))).toEqual(['DE']);
    expect(ids(jurisdictionsFor({ country: 'DE', region: 'BY' }))).toEqual(['DE']);
  });

  it('a PST or QST province: the federal GST, then the province', () => {
    expect(ids(jurisdictionsFor({ country: 'CA', region: 'BC' }))).toEqual(['CA', 'CA-BC']);
    expect(ids(jurisdictionsFor({ country: 'CA', region: 'QC' }))).toEqual(['CA', 'CA-QC']);
  });

  it('an HST province: the HST alone', () => {
    expect(ids(jurisdictionsFor({ country: 'CA', region: 'NS' }))).toEqual(['CA-NS']);
  });

  it('a province without a rule of its own, or no province: the GST alone', () => {
    expect(ids(jurisdictionsFor({ country: 'CA', region: 'YT' }))).toEqual(['CA']);
    expect(ids(jurisdictionsFor({ country: 'CA', region: null }))).toEqual(['CA']);
  });

  it('a country the table does not know: nothing', () => {
    expect(jurisdictionsFor({ country: 'US', region: 'NY' })).toEqual([]);
  });
});

describe('periodInForce', () => {
  it('takes the period with the latest start on or before the day', () => {
    const luxembourg = jurisdiction('LU');
    expect(periodInForce(luxembourg, '2022-12-31').standard).toBe('17');
    expect(periodInForce(luxembourg, '2023-01-01').standard).toBe('16');
    expect(periodInForce(luxembourg, '2023-12-31').standard).toBe('16');
    expect(periodInForce(luxembourg, '2024-01-01').standard).toBe('17');
  });

  it('refuses a day before the first period', () => {
    expect(() => periodInForce(jurisdiction('DE'), '2020-06-30')).toThrow(
      expect.objectContaining({ code: 'tax.no_rate_in_force' }),
    );
  });
});
