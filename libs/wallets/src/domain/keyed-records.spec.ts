import { emptyRecords, recordOf, withRecord } from './keyed-records';

describe('keyed records', () => {
  it('finds what was added, and leaves the records it was added to as they were', () => {
    const before = withRecord(emptyRecords<number>(), 'a', 1);
    const after = withRecord(before, 'b', 2);
    expect([recordOf(after, 'a'), recordOf(after, 'b')]).toEqual([1, 2]);
    expect(recordOf(before, 'b')).toBeUndefined();
  });

  it('keeps every one of many keys', () => {
    let records = emptyRecords<string>();
    for (let i = 0; i < 1000; i++) records = withRecord(records, `wtx_${i}`, `v${i}`);
    expect(Array.from({ length: 1000 }, (_, i) => recordOf(records, `wtx_${i}`))).toEqual(Array.from({ length: 1000 }, (_, i) => `v${i}`));
    expect(recordOf(records, '__proto__')).toBeUndefined();
  });
});
