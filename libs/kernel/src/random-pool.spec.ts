import { RandomPool } from './random-pool';

describe('RandomPool', () => {
  it('hands out strings of its size that later draws never overwrite, across refills', () => {
    const pool = new RandomPool(12, 4);
    const taken = Array.from({ length: 10 }, () => pool.next());
    const copies = taken.map((bytes) => Buffer.from(bytes).toString('hex'));
    Array.from({ length: 10 }, () => pool.next());
    expect(taken.every((bytes) => bytes.length === 12)).toBe(true);
    expect(taken.map((bytes) => bytes.toString('hex'))).toEqual(copies);
    expect(new Set(copies).size).toBe(10);
  });
});
