import { readConfig } from './tally-config';

describe('the webhook receiver timeout (TALLY_WEBHOOK_TIMEOUT_MS)', () => {
  it('is the spec’s 10 seconds unless set', () => {
    expect(readConfig({}).webhookTimeoutMs).toBe(10_000);
    expect(readConfig({ TALLY_WEBHOOK_TIMEOUT_MS: '3000' }).webhookTimeoutMs).toBe(3_000);
  });

  it('refuses anything but a positive whole number of milliseconds', () => {
    for (const value of ['0', '-5', '2.5', '10s', '']) expect(() => readConfig({ TALLY_WEBHOOK_TIMEOUT_MS: value })).toThrow('TALLY_WEBHOOK_TIMEOUT_MS is a whole number of milliseconds, at least 1');
  });
});
