import { DomainError } from '@tally/kernel';
import { keyLifetimeMs, parseIdempotencyKey } from './idempotency-key';

const HOUR = 3_600_000;

describe('parseIdempotencyKey', () => {
  it('takes a UUID and writes it in lower case', () => {
    expect(parseIdempotencyKey('4F1C1A0E-93A4-4C3B-9A53-0D1F8D7B2E11')).toBe('4f1c1a0e-93a4-4c3b-9a53-0d1f8d7b2e11');
  });

  it.each([['not-a-uuid'], [''], [' 4f1c1a0e-93a4-4c3b-9a53-0d1f8d7b2e11'], ['4f1c1a0e-93a4-4c3b-9a53-0d1f8d7b2e1g'], [['4f1c1a0e-93a4-4c3b-9a53-0d1f8d7b2e11']]])(
    'refuses %p',
    (header) => {
      expect(() => parseIdempotencyKey(header)).toThrow(expect.objectContaining({ code: 'idempotency.invalid_key', kind: 'invalid' }) as DomainError);
    },
  );
});

describe('keyLifetimeMs', () => {
  it.each([
    ['2024-10-01', 12],
    ['2025-04-01', 12],
    ['2025-10-01', 24],
    ['2026-04-01', 24],
  ] as const)('keeps keys of version %s for %i hours', (version, hours) => {
    expect(keyLifetimeMs(version)).toBe(hours * HOUR);
  });
});
