import { TIMER_FIRED } from '@tally/kernel';
import { ProcessSpecification } from '@tally/kernel/testing/process-spec';
import { cardExpiryDecider } from './card-expiry.process';

const spec = ProcessSpecification.for(cardExpiryDecider);
const payment_method_id = 'pm_01JMETHOD0000000000000000';
const EXPIRES = '2026-12-01T00:00:00.000Z';
const attached = { id: '01JEVENT000000000000000001', type: 'PaymentMethodAttached' as const, data: { payment_method_id, expires_at: EXPIRES } };
const fired = (timer_id: string) => ({ id: `timer:${timer_id}`, type: TIMER_FIRED, data: { timer_id } }) as const;

describe('card expiry process', () => {
  it('sets a timer 30 days before the expiry and one at it', () =>
    spec.given([]).when(attached).then([
      { kind: 'schedule', timerId: 'expiring', dueAt: '2026-11-01T00:00:00.000Z' },
      { kind: 'schedule', timerId: 'expired', dueAt: EXPIRES },
    ]));

  it('marks the card expiring, then expired, as the timers fire', () => {
    spec.given([attached]).when(fired('expiring')).then([{ kind: 'command', command: { type: 'MarkCardExpiry', data: { payment_method_id, expires_at: EXPIRES, stage: 'expiring' } } }]);
    spec.given([attached]).when(fired('expired')).then([{ kind: 'command', command: { type: 'MarkCardExpiry', data: { payment_method_id, expires_at: EXPIRES, stage: 'expired' } } }]);
  });

  it('cancels both timers when the card is detached', () =>
    spec.given([attached]).when({ id: '01JEVENT000000000000000002', type: 'PaymentMethodDetached', data: { payment_method_id } }).then([
      { kind: 'cancel', timerId: 'expiring' },
      { kind: 'cancel', timerId: 'expired' },
    ]));

  it('schedules once, however often the attach arrives', () => spec.given([attached]).when({ ...attached, id: '01JEVENT000000000000000003' }).thenNothingHappens());

  it('ignores a timer it never set', () => spec.given([attached]).when(fired('other')).thenNothingHappens());
});
