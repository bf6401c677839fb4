/*
 * The built-in tax rates, as known on the table's version date (2026-01-01). Rates change every
 * year somewhere: check every rate against the tax authority before production use, and record
 * each change as a new period (docs/tax.md).
 *
 * Coverage starts on 2021-01-01: a first period starting that day marks the start of coverage,
 * not the day the rate came into force. `reduced` is one reduced rate per jurisdiction, the main
 * one; other reduced rates, super-reduced, parking and zero rates are noted beside the row and
 * are not modelled. Regional regimes inside a country (Azores and Madeira, the Canary Islands,
 * Åland, Büsingen, Livigno, …) are not modelled either.
 *
 * Sources relied on:
 * - The European Commission's table "VAT rates applied in the Member States of the European
 *   Union" (taxation-customs.ec.europa.eu) for the member states' rates.
 * - For the changes since 2023, the laws and tax-authority announcements as reported by tax
 *   advisers' bulletins (EY Tax News, DLA Piper, Sovos, VATCalc, Marosa): Luxembourg's 2023 cut,
 *   Czechia 2024-01-01, Estonia 2024-01-01 and 2025-07-01, Finland 2024-09-01 and 2026-01-01,
 *   Slovakia 2025-01-01, Romania 2025-08-01 (Law 141/2025), Lithuania 2026-01-01 (Law XV-287).
 * - HMRC (GB), Skatteetaten (NO), the Swiss Federal Tax Administration (CH, 2024-01-01), the
 *   National Tax Agency (JP), A New Tax System (Goods and Services Tax) Act 1999 s 9-90 (AU:
 *   "rounding 0.5 cents upwards").
 * - Canada Revenue Agency "GST/HST rates" (Nova Scotia's HST 14 % from 2025-04-01), Revenu Québec
 *   "Calculating the taxes" (QST 9.975 %; a fraction of one-half cent or more counts as a cent),
 *   the finance ministries of British Columbia, Saskatchewan and Manitoba.
 * - Germany: tax law sets no rounding rule of its own and the administration expects commercial
 *   rounding (half up) of the tax to the cent.
 */
import type { RoundingMode } from '@tally/kernel';
import type { CountryTax, RatePeriod, TaxJurisdiction, TaxTable } from '../tax-table';

const COVERAGE_START = '2021-01-01';

function from(day: string, standard: string, reduced: string | null): RatePeriod {
  return Object.freeze({ from: day, standard, reduced });
}

function country(
  code: string,
  taxType: string,
  periods: RatePeriod[],
  { eu = false, rounding = 'half_even' }: { eu?: boolean; rounding?: RoundingMode } = {},
): TaxJurisdiction {
  return Object.freeze({
    id: code,
    country: code,
    region: null,
    tax_type: taxType,
    eu,
    rounding,
    country_tax: null,
    periods: Object.freeze(periods),
  });
}

function euVat(code: string, periods: RatePeriod[], rounding: RoundingMode = 'half_even'): TaxJurisdiction {
  return country(code, 'vat', periods, { eu: true, rounding });
}

function canadianProvince(
  region: string,
  taxType: string,
  countryTax: CountryTax,
  periods: RatePeriod[],
  rounding: RoundingMode = 'half_even',
): TaxJurisdiction {
  return Object.freeze({
    id: `CA-${region}`,
    country: 'CA',
    region,
    tax_type: taxType,
    eu: false,
    rounding,
    country_tax: countryTax,
    periods: Object.freeze(periods),
  });
}

export const TAX_TABLE: TaxTable = Object.freeze({
  version: '2026-01-01',
  jurisdictions: Object.freeze([
    // The EU member states (ISO 3166 codes: GR is Greece, whose VAT numbers start with EL).
    euVat('AT', [from(COVERAGE_START, '20', '10')]), // also 13
    euVat('BE', [from(COVERAGE_START, '21', '6')]), // also 12
    euVat('BG', [from(COVERAGE_START, '20', '9')]),
    euVat('CY', [from(COVERAGE_START, '19', '9')]), // also 5
    euVat('CZ', [
      from(COVERAGE_START, '21', '15'), // also 10
      from('2024-01-01', '21', '12'), // 15 and 10 merged
    ]),
    euVat('DE', [from(COVERAGE_START, '19', '7')], 'half_up'), // commercial rounding
    euVat('DK', [from(COVERAGE_START, '25', null)]),
    euVat('EE', [
      from(COVERAGE_START, '20', '9'),
      from('2024-01-01', '22', '9'),
      from('2025-07-01', '24', '9'), // also 13 (accommodation) since 2025-01-01
    ]),
    euVat('ES', [from(COVERAGE_START, '21', '10')]), // super-reduced 4
    euVat('FI', [
      from(COVERAGE_START, '24', '14'), // also 10
      from('2024-09-01', '25.5', '14'),
      from('2026-01-01', '25.5', '13.5'), // also 10
    ]),
    euVat('FR', [from(COVERAGE_START, '20', '5.5')]), // also 10; super-reduced 2.1
    euVat('GR', [from(COVERAGE_START, '24', '13')]), // also 6
    euVat('HR', [from(COVERAGE_START, '25', '13')]), // also 5
    euVat('HU', [from(COVERAGE_START, '27', '5')]), // also 18
    euVat('IE', [
      from(COVERAGE_START, '21', '13.5'), // the temporary 21 % ran from 2020-09-01 to 2021-02-28
      from('2021-03-01', '23', '13.5'), // also 9; super-reduced 4.8
    ]),
    euVat('IT', [from(COVERAGE_START, '22', '10')]), // also 5; super-reduced 4
    euVat('LT', [
      from(COVERAGE_START, '21', '9'), // also 5
      from('2026-01-01', '21', '12'), // 9 abolished; also 5
    ]),
    euVat('LU', [
      from(COVERAGE_START, '17', '8'), // also 14; super-reduced 3
      from('2023-01-01', '16', '7'), // the 2023 cut: also 13; super-reduced 3
      from('2024-01-01', '17', '8'),
    ]),
    euVat('LV', [from(COVERAGE_START, '21', '12')]), // also 5
    euVat('MT', [from(COVERAGE_START, '18', '7')]), // also 5
    euVat('NL', [from(COVERAGE_START, '21', '9')]),
    euVat('PL', [from(COVERAGE_START, '23', '8')]), // also 5
    euVat('PT', [from(COVERAGE_START, '23', '6')]), // mainland; also 13
    euVat('RO', [
      from(COVERAGE_START, '19', '9'), // also 5
      from('2025-08-01', '21', '11'), // 9 and 5 merged
    ]),
    euVat('SE', [from(COVERAGE_START, '25', '12')]), // also 6
    euVat('SI', [from(COVERAGE_START, '22', '9.5')]), // also 5
    euVat('SK', [
      from(COVERAGE_START, '20', '10'), // also 5
      from('2025-01-01', '23', '5'), // 10 abolished; also 19
    ]),

    // Europe outside the EU.
    country('GB', 'vat', [from(COVERAGE_START, '20', '5')]),
    country('NO', 'vat', [from(COVERAGE_START, '25', '15')]), // also 12
    country('CH', 'vat', [
      from(COVERAGE_START, '7.7', '2.5'), // also 3.7 (accommodation)
      from('2024-01-01', '8.1', '2.6'), // also 3.8 (accommodation)
    ]),

    // Asia-Pacific.
    country('AU', 'gst', [from(COVERAGE_START, '10', null)], { rounding: 'half_up' }), // GST Act s 9-90
    country('JP', 'consumption', [from(COVERAGE_START, '10', '8')]),

    // Canada: the federal GST everywhere; HST provinces replace it, PST, RST and QST provinces add to it.
    country('CA', 'gst', [from(COVERAGE_START, '5', null)]),
    canadianProvince('NB', 'hst', 'replaced', [from(COVERAGE_START, '15', null)]),
    canadianProvince('NL', 'hst', 'replaced', [from(COVERAGE_START, '15', null)]),
    canadianProvince('NS', 'hst', 'replaced', [
      from(COVERAGE_START, '15', null),
      from('2025-04-01', '14', null),
    ]),
    canadianProvince('ON', 'hst', 'replaced', [from(COVERAGE_START, '13', null)]),
    canadianProvince('PE', 'hst', 'replaced', [from(COVERAGE_START, '15', null)]),
    canadianProvince('BC', 'pst', 'kept', [from(COVERAGE_START, '7', null)]),
    // Manitoba calls its provincial sales tax the retail sales tax.
    canadianProvince('MB', 'rst', 'kept', [from(COVERAGE_START, '7', null)]),
    canadianProvince('SK', 'pst', 'kept', [from(COVERAGE_START, '6', null)]),
    // Revenu Québec: a fraction of one-half cent or more counts as a whole cent.
    canadianProvince('QC', 'qst', 'kept', [from(COVERAGE_START, '9.975', null)], 'half_up'),
  ]),
});
