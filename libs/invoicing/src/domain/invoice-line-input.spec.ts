import { DomainError } from '@tally/kernel';
import { manualLine, type LineInput } from './invoice-line-input';

const input = (period_start: string | null, period_end: string | null): LineInput => ({
  line_id: 'il_1',
  description: 'Support',
  quantity: '1',
  unit_amount: '120.00',
  period_start,
  period_end,
  tax_code: 'standard',
  metadata: {},
});
const refusal = (line: LineInput) => {
  try {
    manualLine(line, 'EUR', 'lines[0]');
  } catch (error) {
    return error instanceof DomainError ? [error.code, error.fields.map((field) => field.field)] : error;
  }
  return undefined;
};

describe('a line added by hand', () => {
  it('covers a service period of up to 366 days, a leap year’s whole', () => {
    expect(manualLine(input('2028-01-01T00:00:00.000Z', '2029-01-01T00:00:00.000Z'), 'EUR')).toMatchObject({ amount: '120', period_end: '2029-01-01T00:00:00.000Z' });
    expect(manualLine(input(null, null), 'EUR').period_start).toBeNull();
  });

  it('refuses a longer period, as one without an end or ending before its start', () => {
    expect(refusal(input('2028-01-01T00:00:00.000Z', '2029-01-01T00:00:00.001Z'))).toEqual(['invoice.invalid_line', ['lines[0].period_end']]);
    expect(refusal(input('2001-01-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z'))).toEqual(['invoice.invalid_line', ['lines[0].period_end']]);
    expect(refusal(input('2028-01-01T00:00:00.000Z', null))).toEqual(['invoice.invalid_line', ['lines[0].period_end']]);
    expect(refusal(input('2028-01-02T00:00:00.000Z', '2028-01-01T00:00:00.000Z'))).toEqual(['invoice.invalid_line', ['lines[0].period_end']]);
  });
});
