import Big from 'big.js';
import { creditedLine, spreadOverLines, type CreditableLine } from './credit-note-lines';

const line = (line_id: string, total: string, tax: string, credited = '0'): CreditableLine => ({ line_id, total, tax, credited });
const spread = (amount: string, lines: CreditableLine[], currency = 'EUR') => spreadOverLines(new Big(amount), lines, currency).map((part) => [part.line.line_id, part.amount.toFixed()]);

describe('a credit note’s amount over the invoice’s lines', () => {
  it('spreads in proportion to what is left of each line, in whole cents that add up to the amount', () => {
    expect(spread('10.00', [line('a', '119', '19'), line('b', '59.5', '9.5')])).toEqual([
      ['a', '6.67'],
      ['b', '3.33'],
    ]);
    expect(spread('0.01', [line('a', '1', '0'), line('b', '1', '0'), line('c', '1', '0')])).toEqual([['a', '0.01']]);
    expect(spread('100', [line('a', '33.33', '0'), line('b', '33.33', '0'), line('c', '33.34', '0')]).map(([, amount]) => amount)).toEqual(['33.33', '33.33', '33.34']);
  });

  it('gives nothing to a line credited in full, and never more than is left of a line', () => {
    expect(spread('10.00', [line('a', '119', '19', '119'), line('b', '59.5', '9.5')])).toEqual([['b', '10']]);
    expect(spread('1.00', [line('a', '0.50', '0', '0.01'), line('b', '0.51', '0')])).toEqual([
      ['a', '0.49'],
      ['b', '0.51'],
    ]);
  });

  it('rounds to the currency’s minor unit (none for JPY)', () => expect(spread('100', [line('a', '200', '0'), line('b', '100', '0')], 'JPY')).toEqual([['a', '67'], ['b', '33']]));

  it('puts the tax in a line’s credit at the line’s own rate, rounded', () => {
    expect(creditedLine(line('a', '119', '19'), new Big('6.67'), 'EUR')).toEqual({ line_id: 'a', amount: '6.67', tax_amount: '1.06' });
    expect(creditedLine(line('b', '107', '7'), new Big('10.70'), 'EUR')).toEqual({ line_id: 'b', amount: '10.7', tax_amount: '0.7' });
    expect(creditedLine(line('c', '0', '0'), new Big('0'), 'EUR')).toEqual({ line_id: 'c', amount: '0', tax_amount: '0' });
  });
});
