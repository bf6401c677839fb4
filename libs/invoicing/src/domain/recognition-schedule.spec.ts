import Big from 'big.js';
import fc from 'fast-check';
import { recognitionScheduleSteps, type RecognitionCreditNote, type RecognitionInput, type RecognitionLine, type RecognitionPage, type RecognitionRow, type RecognitionRowKey, type RecognitionSchedule } from './recognition-schedule';

/** The schedule worked out at once, every step in a row. */
function recognitionSchedule(input: RecognitionInput, now: Date, page?: RecognitionPage): RecognitionSchedule {
  const steps = recognitionScheduleSteps(input, now, page);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

const line = (id: string, amount: string, period_start: string, period_end: string): RecognitionLine => ({ id, amount, period_start, period_end });
const schedule = (input: Partial<RecognitionInput>, now = '2026-01-01T00:00:00.000Z') =>
  recognitionSchedule({ currency: 'EUR', lines: [], credit_notes: [], ...input }, new Date(now));
const sumOf = (amounts: string[]) => amounts.reduce((total, a) => total.plus(a), new Big(0));

describe('the revenue recognition schedule', () => {
  describe('credit notes on a line’s total (after discounts, with tax: its basis)', () => {
    /** 40.00 of revenue over four days; its total with 19% tax is 47.60. */
    const taxed = { ...line('il_1', '40.00', '2026-03-01T00:00:00Z', '2026-03-05T00:00:00Z'), credit_basis: '47.60' };
    const note = (id: string, amount: string, created_at: string, byLine = true): RecognitionCreditNote => ({ id, amount, lines: byLine ? [{ line_id: 'il_1', amount }] : [], created_at });

    it('takes off the schedule the credited share of the line’s amount, not the credited amount (tax is not revenue)', () => {
      // Half the total on day 3: 20.00 of revenue, 10.00 of it the two days already recognised (reversed on day 3), 10.00 of the two ahead.
      const { rows, total } = schedule({ lines: [taxed], credit_notes: [note('cn_1', '23.80', '2026-03-03T08:00:00Z')] }, '2026-03-03T12:00:00Z');
      expect(rows.map((r) => [r.date, r.credit_note_id, r.amount, r.recognized])).toEqual([
        ['2026-03-01', null, '10.00', true],
        ['2026-03-02', null, '10.00', true],
        ['2026-03-03', null, '5.00', false],
        ['2026-03-03', 'cn_1', '-10.00', false],
        ['2026-03-04', null, '5.00', false],
      ]);
      expect(total).toBe('20.00');
    });

    it('credited whole in pieces, removes the line’s future rows and reverses all it recognised, to the unit', () => {
      const pieces = [note('cn_1', '15.87', '2026-03-02T01:00:00Z'), note('cn_2', '15.87', '2026-03-02T02:00:00Z'), note('cn_3', '15.86', '2026-03-03T00:00:00Z')];
      const { rows, total } = schedule({ lines: [taxed], credit_notes: pieces }, '2026-03-03T12:00:00Z');
      expect(total).toBe('0.00');
      expect(rows.filter((r) => r.credit_note_id === null && r.date >= '2026-03-03')).toEqual([]);
    });

    it('spreads a credit note by amount over the lines in proportion to what is left of their bases', () => {
      const untaxed = { ...line('il_2', '40.00', '2026-03-01T00:00:00Z', '2026-03-05T00:00:00Z'), credit_basis: '40.00' };
      // 87.60 of totals: crediting 43.80 takes half of each line's revenue off.
      const { total } = schedule({ lines: [taxed, untaxed], credit_notes: [note('cn_1', '43.80', '2026-03-01T00:00:00Z', false)] });
      expect(total).toBe('40.00');
    });
  });

  it('spreads a line straight-line over the UTC days of its period, the remainder on the largest remainders', () => {
    const { rows, total } = schedule({ lines: [line('il_1', '10.00', '2026-03-01T00:00:00Z', '2026-03-04T00:00:00Z')] });
    expect(rows.map((r) => [r.date, r.amount])).toEqual([
      ['2026-03-01', '3.34'],
      ['2026-03-02', '3.33'],
      ['2026-03-03', '3.33'],
    ]);
    expect(total).toBe('10.00');
  });

  it('weighs a partial first and last day by the time of the period inside them', () => {
    const { rows } = schedule({ lines: [line('il_1', '30.00', '2026-03-01T12:00:00Z', '2026-03-03T12:00:00Z')] });
    expect(rows.map((r) => [r.date, r.amount])).toEqual([
      ['2026-03-01', '7.50'],
      ['2026-03-02', '15.00'],
      ['2026-03-03', '7.50'],
    ]);
  });

  it('recognises a line with an empty period on its start date, whole', () => {
    const { rows } = schedule({ lines: [line('il_1', '5.00', '2026-03-01T09:00:00Z', '2026-03-01T09:00:00Z')] });
    expect(rows).toEqual([{ date: '2026-03-01', line_id: 'il_1', credit_note_id: null, amount: '5.00', recognized: false }]);
  });

  it('marks the days that have ended as recognised and sums them', () => {
    const result = schedule({ lines: [line('il_1', '31.00', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')] }, '2026-01-11T15:00:00Z');
    expect(result.rows.filter((r) => r.recognized).map((r) => r.date)).toEqual(Array.from({ length: 10 }, (_, i) => `2026-01-${String(i + 1).padStart(2, '0')}`));
    expect(result.recognized_to_date).toBe('10.00');
    expect(result.deferred).toBe('21.00');
  });

  it('keeps a currency’s minor units (JPY has none) and an amount’s finer decimals', () => {
    expect(schedule({ currency: 'JPY', lines: [line('il_1', '100', '2026-03-01T00:00:00Z', '2026-03-04T00:00:00Z')] }).rows.map((r) => r.amount)).toEqual(['34', '33', '33']);
    expect(schedule({ lines: [line('il_1', '0.001', '2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z')] }).rows.map((r) => r.amount)).toEqual(['0.001']);
  });

  it('removes the future rows of a line credited whole, and reverses what was recognised on the credit note’s day', () => {
    const credit: RecognitionCreditNote = { id: 'cn_1', amount: '10.00', lines: [{ line_id: 'il_1', amount: '10.00' }], created_at: '2026-03-03T08:00:00Z' };
    const { rows, total } = schedule({ lines: [line('il_1', '10.00', '2026-03-01T00:00:00Z', '2026-03-11T00:00:00Z')], credit_notes: [credit] }, '2026-03-05T00:00:00Z');
    expect(rows.map((r) => [r.date, r.amount, r.credit_note_id, r.recognized])).toEqual([
      ['2026-03-01', '1.00', null, true],
      ['2026-03-02', '1.00', null, true],
      ['2026-03-03', '-2.00', 'cn_1', true],
    ]);
    expect(total).toBe('0.00');
  });

  it('reduces the future rows in proportion to a partial credit, and reverses the recognised share of it', () => {
    const credit: RecognitionCreditNote = { id: 'cn_1', amount: '5.00', lines: [{ line_id: 'il_1', amount: '5.00' }], created_at: '2026-03-06T00:00:00Z' };
    const { rows, total } = schedule({ lines: [line('il_1', '10.00', '2026-03-01T00:00:00Z', '2026-03-11T00:00:00Z')], credit_notes: [credit] });
    expect(rows.map((r) => [r.date, r.amount])).toEqual([
      ['2026-03-01', '1.00'],
      ['2026-03-02', '1.00'],
      ['2026-03-03', '1.00'],
      ['2026-03-04', '1.00'],
      ['2026-03-05', '1.00'],
      ['2026-03-06', '0.50'],
      ['2026-03-06', '-2.50'],
      ['2026-03-07', '0.50'],
      ['2026-03-08', '0.50'],
      ['2026-03-09', '0.50'],
      ['2026-03-10', '0.50'],
    ]);
    expect(total).toBe('5.00');
  });

  it('spreads a credit note without lines over the lines in proportion to what they hold', () => {
    const credit: RecognitionCreditNote = { id: 'cn_1', amount: '3.00', lines: [], created_at: '2026-02-01T00:00:00Z' };
    const lines = [line('il_1', '10.00', '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z'), line('il_2', '20.00', '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z')];
    expect(schedule({ lines, credit_notes: [credit] }).rows.map((r) => [r.line_id, r.amount])).toEqual([
      ['il_1', '9.00'],
      ['il_2', '18.00'],
    ]);
  });

  describe('pages', () => {
    const lines = [line('il_1', '31.00', '2026-01-01T06:00:00Z', '2026-02-01T06:00:00Z'), line('il_2', '-9.00', '2026-01-10T00:00:00Z', '2026-01-19T00:00:00Z')];
    const credit_notes: RecognitionCreditNote[] = [
      { id: 'cn_1', amount: '4.00', lines: [], created_at: '2026-01-12T08:00:00Z' },
      { id: 'cn_2', amount: '2.00', lines: [{ line_id: 'il_1', amount: '2.00' }], created_at: '2026-01-12T09:00:00Z' },
    ];
    const whole = schedule({ lines, credit_notes }, '2026-01-15T00:00:00Z');

    it('gives the whole schedule page by page after each page’s last row, every page with the whole schedule’s sums', () => {
      for (const limit of [1, 7, 33, 1000]) {
        const rows: RecognitionRow[] = [];
        let after: RecognitionRowKey | null = null;
        for (;;) {
          const page = recognitionSchedule({ currency: 'EUR', lines, credit_notes }, new Date('2026-01-15T00:00:00Z'), { after, limit });
          expect(page.rows.length).toBeLessThanOrEqual(limit);
          expect([page.total, page.recognized_to_date, page.deferred]).toEqual([whole.total, whole.recognized_to_date, whole.deferred]);
          rows.push(...page.rows);
          if (page.next === null) break;
          after = page.next;
        }
        expect(rows).toEqual(whole.rows);
      }
      expect(whole.next).toBeNull();
    });

    it('gives nothing after the last row, and follows a reversal row’s key', () => {
      const last = whole.rows[whole.rows.length - 1];
      expect(recognitionSchedule({ currency: 'EUR', lines, credit_notes }, new Date(), { after: { date: last.date, line: 0, credit_note_id: null }, limit: 10 }).rows).toEqual([]);
      const reversal = whole.rows.findIndex((row) => row.credit_note_id === 'cn_1');
      const after = { date: whole.rows[reversal].date, line: lines.findIndex((l) => l.id === whole.rows[reversal].line_id), credit_note_id: 'cn_1' };
      expect(recognitionSchedule({ currency: 'EUR', lines, credit_notes }, new Date('2026-01-15T00:00:00Z'), { after, limit: 2 }).rows).toEqual(whole.rows.slice(reversal + 1, reversal + 3));
    });

    it('works in steps of a line or a credit note each, ending with the same schedule', () => {
      const steps = recognitionScheduleSteps({ currency: 'EUR', lines, credit_notes }, new Date('2026-01-15T00:00:00Z'));
      let breaks = 0;
      for (let step = steps.next(); ; step = steps.next(), breaks++) {
        if (step.done) {
          expect(step.value).toEqual(whole);
          break;
        }
      }
      expect(breaks).toBeGreaterThanOrEqual(lines.length + credit_notes.length);
    });
  });

  describe('properties', () => {
    const T0 = Date.parse('2026-01-01T00:00:00Z');
    const HOUR = 3_600_000;
    const cents = fc.integer({ min: 0, max: 10_000_000 });
    const lineArb = fc.record({ cents, startHours: fc.integer({ min: 0, max: 24 * 400 }), lengthHours: fc.integer({ min: 0, max: 24 * 400 }), startMs: fc.integer({ min: 0, max: HOUR - 1 }) });
    const creditArb = fc.record({ fraction: fc.double({ min: 0, max: 1, noNaN: true }), atHours: fc.integer({ min: -24 * 30, max: 24 * 900 }), byLine: fc.boolean() });
    const money = (c: number | bigint) => new Big(c.toString()).div(100).toFixed(2);

    const build = (lineSpec: { cents: number; startHours: number; lengthHours: number; startMs: number }, credits: { fraction: number; atHours: number; byLine: boolean }[]) => {
      const start = T0 + lineSpec.startHours * HOUR + lineSpec.startMs;
      const end = start + lineSpec.lengthHours * HOUR;
      let left = lineSpec.cents;
      const notes: RecognitionCreditNote[] = credits.map((credit, i) => {
        const amount = Math.floor(left * credit.fraction);
        left -= amount;
        const at = new Date(T0 + credit.atHours * HOUR).toISOString();
        return { id: `cn_${i}`, amount: money(amount), lines: credit.byLine ? [{ line_id: 'il_1', amount: money(amount) }] : [], created_at: at };
      });
      return {
        input: { currency: 'EUR', lines: [line('il_1', money(lineSpec.cents), new Date(start).toISOString(), new Date(end).toISOString())], credit_notes: notes },
        credited: lineSpec.cents - left,
        start,
      };
    };

    it('sums to the line’s amount less what was credited, dates no row before the period’s first day, and is deterministic', () => {
      fc.assert(
        fc.property(lineArb, fc.array(creditArb, { maxLength: 4 }), fc.integer({ min: 0, max: 24 * 900 }), (lineSpec, credits, nowHours) => {
          const { input, credited, start } = build(lineSpec, credits);
          const now = new Date(T0 + nowHours * HOUR);
          const result = recognitionSchedule(input, now);
          expect(sumOf(result.rows.map((r) => r.amount)).toFixed(2)).toBe(money(lineSpec.cents - credited));
          expect(result.total).toBe(money(lineSpec.cents - credited));
          const firstDay = new Date(start).toISOString().slice(0, 10);
          expect(result.rows.filter((r) => r.date < firstDay)).toEqual([]);
          expect(new Big(result.recognized_to_date).plus(result.deferred).toFixed(2)).toBe(result.total);
          expect(recognitionSchedule(input, now)).toEqual(result);
        }),
      );
    });

    it('never makes a line’s own row negative, and recognises a day exactly when it has ended', () => {
      fc.assert(
        fc.property(lineArb, fc.array(creditArb, { maxLength: 4 }), fc.integer({ min: 0, max: 24 * 900 }), (lineSpec, credits, nowHours) => {
          const { input } = build(lineSpec, credits);
          const now = new Date(T0 + nowHours * HOUR);
          const result = recognitionSchedule(input, now);
          expect(result.rows.filter((r) => r.credit_note_id === null && new Big(r.amount).lte(0))).toEqual([]);
          expect(result.rows.filter((r) => r.credit_note_id !== null && new Big(r.amount).gte(0))).toEqual([]);
          const today = now.toISOString().slice(0, 10);
          expect(result.rows.filter((r) => r.recognized !== r.date < today)).toEqual([]);
        }),
      );
    });

    it('with a basis (the line’s total with tax), takes off the credited share of the amount: the whole amount once the whole basis is credited', () => {
      const rate = fc.integer({ min: 0, max: 27 });
      fc.assert(
        fc.property(lineArb, fc.array(creditArb, { maxLength: 4 }), rate, fc.boolean(), (lineSpec, credits, percent, creditTheRest) => {
          const basisCents = lineSpec.cents + Math.round((lineSpec.cents * percent) / 100);
          const { input, credited } = build({ ...lineSpec, cents: basisCents }, credits);
          const notes = [...input.credit_notes];
          const rest = basisCents - credited;
          if (creditTheRest && rest > 0) notes.push({ id: 'cn_rest', amount: money(rest), lines: [{ line_id: 'il_1', amount: money(rest) }], created_at: new Date(T0 + 24 * 500 * HOUR).toISOString() });
          const lines = [{ ...input.lines[0], amount: money(lineSpec.cents), credit_basis: money(basisCents) }];
          const result = recognitionSchedule({ ...input, lines, credit_notes: notes }, new Date(T0));
          const all = creditTheRest ? basisCents : credited;
          // What is left: the amount less the credited share of it, half-even to the cent.
          const taken = basisCents === 0 ? 0n : (() => {
            const exact = new Big(all).times(lineSpec.cents).div(basisCents);
            return BigInt(exact.round(0, Big.roundHalfEven).toFixed(0));
          })();
          expect(result.total).toBe(money(BigInt(lineSpec.cents) - taken));
          if (creditTheRest) expect(result.total).toBe('0.00');
        }),
      );
    });
  });
});
