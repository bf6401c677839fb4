import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { subscriptionDecider, type CreateSubscription, type PlanChange } from './subscription.decider';
import type { InvoiceBasis, SubscriptionCreated, SubscriptionEvent } from './subscription.events';
import { subscriptionTimers } from './subscription.timers';

const spec = DeciderSpecification.for(subscriptionDecider);
const id = 'sub_01JSUBSCRIPTION0000000000';
const T0 = '2026-01-31T10:00:00.000Z';

const create: CreateSubscription = {
  type: 'CreateSubscription',
  data: {
    subscription_id: id,
    customer_id: 'cus_1',
    plan_code: 'pro',
    currency: 'EUR',
    cadence: { interval: 'month', count: 1 },
    payment_behavior: 'allow_incomplete',
    proration_behavior: 'create_prorations',
    quantities: {},
    coupons: [],
    metadata: {},
    default_payment_method_id: null,
    commitment: null,
    at: T0,
    trial_days: 0,
    billing_cycle_anchor: null,
  },
};
/** The plan costs 28.00 EUR a period: canceled at midnight on 5 February, 23 days and 10 hours of the 28-day period are unused: 28 × 562 / 672 = 23.4166… */
const CHARGES = [{ code: 'seat', description: 'seat', amount: '28.00', price_version: 1, tax_code: 'standard' }];
const CREDIT = [{ code: 'seat', description: 'Unused time on seat', amount: '-23.42', period_start: '2026-02-05T00:00:00.000Z', period_end: '2026-02-28T10:00:00.000Z', price_version: 1, tax_code: 'standard' }];
const { at: _at, trial_days: _trial, billing_cycle_anchor: _anchor, payment_behavior: _behavior, proration_behavior: _proration, ...createdFields } = create.data;
const created: SubscriptionCreated = {
  type: 'SubscriptionCreated',
  data: { ...createdFields, status: 'active', trial_end: null, billing_cycle_anchor: T0, period_start: T0, period_end: '2026-02-28T10:00:00.000Z' },
};
const terms = { plan_code: 'pro', quantities: {}, coupons: [], prorations: [] };
/** The basis of the invoice an event calls for, as the decider states it: by default a first period's, charged. */
const basis = (fields: Partial<InvoiceBasis> = {}): InvoiceBasis => ({ customer_id: 'cus_1', billing_reason: 'subscription_create', plan_code: 'pro', coupons: [], period_number: 1, usage: null, collection: 'charge', ...fields });
const billed = (event: SubscriptionEvent, fields?: Partial<InvoiceBasis>): SubscriptionEvent => ({ ...event, data: { ...event.data, billing: basis(fields) } }) as SubscriptionEvent;
/** The usage of the period from `start` to `end`, billed in arrears on the plan it ran on. */
const usage = (start: string, end: string, plan_code = 'pro') => ({ plan_code, period: { start, end } });
const FEB28 = '2026-02-28T10:00:00.000Z';
const MAR31 = '2026-03-31T10:00:00.000Z';
const activated: SubscriptionEvent = { type: 'SubscriptionActivated', data: { subscription_id: id, period_start: T0, period_end: '2026-02-28T10:00:00.000Z', terms, commitment_end: null } };
/** The activation at creation, announced once the first invoice is paid. */
const activatedAtCreation: SubscriptionEvent = billed({ type: 'SubscriptionActivated', data: { ...activated.data, first_payment_pending: true } });
const trialing: SubscriptionCreated = {
  type: 'SubscriptionCreated',
  data: { ...created.data, status: 'trialing', trial_end: '2026-02-14T10:00:00.000Z', billing_cycle_anchor: '2026-02-14T10:00:00.000Z', period_start: T0, period_end: '2026-02-14T10:00:00.000Z' },
};
const paused: SubscriptionEvent = { type: 'SubscriptionPaused', data: { subscription_id: id, paused_at: '2026-02-05T00:00:00.000Z', until: null, behavior: 'void_invoices' } };
const pastDue: SubscriptionEvent = { type: 'SubscriptionPastDue', data: { subscription_id: id, invoice_id: 'in_1' } };
const canceled: SubscriptionEvent = { type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: '2026-02-05T00:00:00.000Z', reason: null, prorations: CREDIT } };

describe('subscription decider', () => {
  describe('RecordRefundProcessed', () => {
    const refund = {
      invoice_id: 'in_1', credit_note_id: 'cn_1', refund_id: 'rfd_1', amount: '23.80', currency: 'EUR',
      revenue_reduced: '20.00', recognized_reversed: '8.00', deferred_reduced: '12.00', processed_at: '2026-02-12T10:00:00.000Z',
    };
    const record = { type: 'RecordRefundProcessed' as const, data: { subscription_id: id, ...refund } };
    const processed: SubscriptionEvent = { type: 'SubscriptionRefundProcessed', data: { subscription_id: id, ...refund } };

    it('records what a credit note did to an invoice’s recognition, active or canceled alike', () => {
      spec.given([created, activated]).when(record).then([processed]);
      spec.given([created, activated, canceled]).when(record).then([processed]);
    });

    it('needs the subscription', () => spec.given([]).when(record).thenFails('subscription.not_found'));
  });

  describe('CreateSubscription', () => {
    it('starts active in a period anchored at creation (a 31st renews on the month’s last day), its activation announced once its first invoice is paid', () =>
      spec.given([]).when(create).then([created, activatedAtCreation]));

    it('starts trialing; the trial is the first period and the cycle is anchored at its end', () =>
      spec.given([]).when({ ...create, data: { ...create.data, trial_days: 14 } }).then([trialing]));

    it('starts with a stub period up to a later billing_cycle_anchor, prorated to the whole period before the anchor', () =>
      spec
        .given([])
        .when({ ...create, data: { ...create.data, billing_cycle_anchor: '2026-02-01T00:00:00.000Z' } })
        .then([
          { type: 'SubscriptionCreated', data: { ...created.data, billing_cycle_anchor: '2026-02-01T00:00:00.000Z', period_end: '2026-02-01T00:00:00.000Z' } },
          billed({
            type: 'SubscriptionActivated',
            data: { subscription_id: id, period_start: T0, period_end: '2026-02-01T00:00:00.000Z', terms: { ...terms, whole_period: { start: '2026-01-01T00:00:00.000Z', end: '2026-02-01T00:00:00.000Z' } }, commitment_end: null, first_payment_pending: true },
          }),
        ]));

    it('bills the stub in full with proration_behavior none', () =>
      spec
        .given([])
        .when({ ...create, data: { ...create.data, billing_cycle_anchor: '2026-02-01T00:00:00.000Z', proration_behavior: 'none' } })
        .then([
          { type: 'SubscriptionCreated', data: { ...created.data, billing_cycle_anchor: '2026-02-01T00:00:00.000Z', period_end: '2026-02-01T00:00:00.000Z', prorate_first_period: false } },
          billed({ type: 'SubscriptionActivated', data: { subscription_id: id, period_start: T0, period_end: '2026-02-01T00:00:00.000Z', terms, commitment_end: null, first_payment_pending: true } }),
        ]));

    it('prorates the first paid period after a trial up to an anchor, when the trial ends', () => {
      const anchored: SubscriptionCreated = { ...trialing, data: { ...trialing.data, billing_cycle_anchor: '2026-03-01T00:00:00.000Z' } };
      spec.given([]).when({ ...create, data: { ...create.data, trial_days: 14, billing_cycle_anchor: '2026-03-01T00:00:00.000Z' } }).then([anchored]);
      spec
        .given([anchored])
        .when({ type: 'EndTrial', data: { subscription_id: id, at: '2026-02-14T10:00:00.000Z' } })
        .then([
          billed(
            {
              type: 'SubscriptionActivated',
              data: { subscription_id: id, period_start: '2026-02-14T10:00:00.000Z', period_end: '2026-03-01T00:00:00.000Z', terms: { ...terms, whole_period: { start: '2026-02-01T00:00:00.000Z', end: '2026-03-01T00:00:00.000Z' } }, commitment_end: null },
            },
            { billing_reason: 'subscription_cycle' },
          ),
        ]);
    });

    it('takes an anchor at most one interval after the start (now, or the trial’s end), as Stripe does', () => {
      // 31 January + 1 month is 28 February, 10:00. A cycle anchored on the 28th runs from 28 January: the first period is 28 of its 31 days.
      spec
        .given([])
        .when({ ...create, data: { ...create.data, billing_cycle_anchor: '2026-02-28T10:00:00.000Z' } })
        .then([
          { type: 'SubscriptionCreated', data: { ...created.data, billing_cycle_anchor: '2026-02-28T10:00:00.000Z' } },
          billed({
            type: 'SubscriptionActivated',
            data: { subscription_id: id, period_start: T0, period_end: '2026-02-28T10:00:00.000Z', terms: { ...terms, whole_period: { start: '2026-01-28T10:00:00.000Z', end: '2026-02-28T10:00:00.000Z' } }, commitment_end: null, first_payment_pending: true },
          }),
        ]);
      spec.given([]).when({ ...create, data: { ...create.data, billing_cycle_anchor: '2026-02-28T10:00:00.001Z' } }).thenFails('subscription.invalid_billing_cycle_anchor');
      spec.given([]).when({ ...create, data: { ...create.data, billing_cycle_anchor: '9999-12-31T00:00:00.000Z' } }).thenFails('subscription.invalid_billing_cycle_anchor');
      spec.given([]).when({ ...create, data: { ...create.data, trial_days: 14, billing_cycle_anchor: '2026-03-14T10:00:00.000Z' } }).then([{ ...trialing, data: { ...trialing.data, billing_cycle_anchor: '2026-03-14T10:00:00.000Z' } }]);
      spec.given([]).when({ ...create, data: { ...create.data, trial_days: 14, billing_cycle_anchor: '2026-03-14T10:00:00.001Z' } }).thenFails('subscription.invalid_billing_cycle_anchor');
    });

    it('refuses an anchor in the past, and a trial outside 0 to 730 days', () => {
      spec.given([]).when({ ...create, data: { ...create.data, billing_cycle_anchor: '2026-01-31T09:59:59.999Z' } }).thenFails('subscription.invalid_billing_cycle_anchor');
      spec.given([]).when({ ...create, data: { ...create.data, trial_days: 731 } }).thenFails('subscription.invalid_trial_days');
      spec.given([]).when({ ...create, data: { ...create.data, trial_days: -1 } }).thenFails('subscription.invalid_trial_days');
    });

    it('does nothing when the subscription exists (a retried create)', () => spec.given([created]).when(create).thenNothingHappens());
  });

  describe('the trial and the periods', () => {
    const endTrial = { type: 'EndTrial' as const, data: { subscription_id: id, at: '2026-02-14T10:00:05.000Z' } };

    it('activates at the trial’s end, in the period starting then, however late the timer fires', () =>
      spec
        .given([trialing])
        .when(endTrial)
        .then([billed({ type: 'SubscriptionActivated', data: { subscription_id: id, period_start: '2026-02-14T10:00:00.000Z', period_end: '2026-03-14T10:00:00.000Z', terms, commitment_end: null } }, { billing_reason: 'subscription_cycle' })]));

    it('ends a trial once: a second firing changes nothing', () =>
      spec.given([trialing, { type: 'SubscriptionActivated', data: { subscription_id: id, period_start: '2026-02-14T10:00:00.000Z', period_end: '2026-03-14T10:00:00.000Z', terms, commitment_end: null } }]).when(endTrial).thenNothingHappens());

    it('renews into the next period from the anchor (28 February, then 31 March)', () =>
      spec
        .given([created, { type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: '2026-02-28T10:00:00.000Z', period_end: '2026-03-31T10:00:00.000Z', terms, commitment_end: null } }])
        .when({ type: 'ClosePeriod', data: { subscription_id: id, period_end: '2026-03-31T10:00:00.000Z' } })
        .then([
          billed(
            { type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: '2026-03-31T10:00:00.000Z', period_end: '2026-04-30T10:00:00.000Z', terms, commitment_end: null } },
            { billing_reason: 'subscription_cycle', period_number: 2, usage: usage(FEB28, MAR31) },
          ),
        ]));

    it('closes each period once: the timer of a period already closed changes nothing', () =>
      spec.given([created]).when({ type: 'ClosePeriod', data: { subscription_id: id, period_end: '2026-01-31T10:00:00.000Z' } }).thenNothingHappens());

    it('keeps renewing while paused: a pause stops collection, not the cycle', () =>
      spec
        .given([created, activated, paused])
        .when({ type: 'ClosePeriod', data: { subscription_id: id, period_end: '2026-02-28T10:00:00.000Z' } })
        .then([
          billed(
            { type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: '2026-02-28T10:00:00.000Z', period_end: '2026-03-31T10:00:00.000Z', terms, commitment_end: null } },
            // Its invoice follows the pause.
            { billing_reason: 'subscription_cycle', period_number: 2, usage: usage(T0, FEB28), collection: 'void_invoices' },
          ),
        ]));
  });

  describe('pause and resume', () => {
    const pause = { type: 'PauseSubscription' as const, data: { subscription_id: id, at: '2026-02-05T00:00:00.000Z', until: '2026-03-01T00:00:00.000Z', behavior: 'keep_as_draft' as const } };

    it('pauses an active subscription until a date', () =>
      spec.given([created]).when(pause).then([{ type: 'SubscriptionPaused', data: { subscription_id: id, paused_at: '2026-02-05T00:00:00.000Z', until: '2026-03-01T00:00:00.000Z', behavior: 'keep_as_draft' } }]));

    it('refuses a pause of a paused, trialing or canceled subscription, and an `until` not in the future', () => {
      spec.given([created, paused]).when(pause).thenFails('subscription.already_paused');
      spec.given([trialing]).when(pause).thenFails('subscription.invalid_state');
      spec.given([created, canceled]).when(pause).thenFails('subscription.invalid_state');
      spec.given([created]).when({ ...pause, data: { ...pause.data, until: pause.data.at } }).thenFails('subscription.invalid_pause_until');
    });

    it('resumes by hand, and the automatic resume after a manual one changes nothing', () => {
      const resume = (automatic: boolean) => ({ type: 'ResumeSubscription' as const, data: automatic ? { subscription_id: id, at: '2026-03-01T00:00:00.000Z', automatic, until: '2026-03-01T00:00:00.000Z' } : { subscription_id: id, at: '2026-02-10T00:00:00.000Z', automatic } });
      const resumed: SubscriptionEvent = { type: 'SubscriptionResumed', data: { subscription_id: id, resumed_at: '2026-02-10T00:00:00.000Z', automatic: false } };
      spec.given([created, paused]).when(resume(false)).then([resumed]);
      const pausedUntil: SubscriptionEvent = { type: 'SubscriptionPaused', data: { subscription_id: id, paused_at: '2026-02-05T00:00:00.000Z', until: '2026-03-01T00:00:00.000Z', behavior: 'keep_as_draft' } };
      spec.given([created, pausedUntil]).when(resume(true)).then([{ type: 'SubscriptionResumed', data: { subscription_id: id, resumed_at: '2026-03-01T00:00:00.000Z', automatic: true } }]);
      spec.given([created, paused, resumed]).when(resume(true)).thenNothingHappens();
      spec.given([created]).when(resume(false)).thenFails('subscription.not_paused');
    });

    it('lets the automatic resume of an earlier pause leave a later pause alone', () => {
      const automatic = { type: 'ResumeSubscription' as const, data: { subscription_id: id, at: '2026-03-01T00:00:00.000Z', automatic: true as const, until: '2026-03-01T00:00:00.000Z' } };
      const resumed: SubscriptionEvent = { type: 'SubscriptionResumed', data: { subscription_id: id, resumed_at: '2026-02-10T00:00:00.000Z', automatic: false } };
      const pausedAgain = (until: string | null): SubscriptionEvent => ({ type: 'SubscriptionPaused', data: { subscription_id: id, paused_at: '2026-02-10T00:00:00.000Z', until, behavior: 'void_invoices' } });
      spec.given([created, paused, resumed, pausedAgain(null)]).when(automatic).thenNothingHappens();
      spec.given([created, paused, resumed, pausedAgain('2026-04-01T00:00:00.000Z')]).when(automatic).thenNothingHappens();
    });
  });

  describe('cancel', () => {
    const cancel = (when: 'now' | 'period_end') => ({ type: 'CancelSubscription' as const, data: { subscription_id: id, at: '2026-02-05T00:00:00.000Z', when, reason: 'too expensive', charges: CHARGES } });

    it('cancels now, crediting the unused time of the paid period from now', () =>
      spec.given([created]).when(cancel('now')).then([{ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: '2026-02-05T00:00:00.000Z', reason: 'too expensive', prorations: CREDIT } }]));

    it('cancels a trial or a pause now with nothing to credit', () => {
      const none = { type: 'SubscriptionCanceled' as const, data: { subscription_id: id, canceled_at: '2026-02-05T00:00:00.000Z', reason: 'too expensive', prorations: [] } };
      spec.given([trialing]).when(cancel('now')).then([none]);
      spec.given([created, paused]).when(cancel('now')).then([none]);
    });

    it('cancels at period end: scheduled now, canceled when the period closes, with its reason', () => {
      const scheduled: SubscriptionEvent = { type: 'SubscriptionCancellationScheduled', data: { subscription_id: id, cancel_at: '2026-02-28T10:00:00.000Z', reason: 'too expensive' } };
      spec.given([created]).when(cancel('period_end')).then([scheduled]);
      spec.given([created, scheduled]).when(cancel('period_end')).thenNothingHappens();
      spec
        .given([created, scheduled])
        .when({ type: 'ClosePeriod', data: { subscription_id: id, period_end: '2026-02-28T10:00:00.000Z' } })
        .then([{ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: '2026-02-28T10:00:00.000Z', reason: 'too expensive', prorations: [] } }]);
    });

    it('cancels a trial at its end when asked to cancel at period end', () => {
      const scheduled: SubscriptionEvent = { type: 'SubscriptionCancellationScheduled', data: { subscription_id: id, cancel_at: '2026-02-14T10:00:00.000Z', reason: 'too expensive' } };
      spec.given([trialing]).when(cancel('period_end')).then([scheduled]);
      spec
        .given([trialing, scheduled])
        .when({ type: 'EndTrial', data: { subscription_id: id, at: '2026-02-14T10:00:00.000Z' } })
        .then([{ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: '2026-02-14T10:00:00.000Z', reason: 'too expensive', prorations: [] } }]);
    });

    it('cancels without crediting or a final invoice when its customer was deleted', () =>
      spec
        .given([created])
        .when({ type: 'CancelSubscription', data: { subscription_id: id, at: '2026-02-05T00:00:00.000Z', when: 'now', reason: 'customer_deleted', charges: CHARGES, final_invoice: false } })
        .then([{ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: '2026-02-05T00:00:00.000Z', reason: 'customer_deleted', prorations: [], final_invoice: false } }]));

    it('refuses to cancel twice', () => spec.given([created, canceled]).when(cancel('now')).thenFails('subscription.already_canceled'));

    describe('with prorations pending from a change earlier in the period, on the final invoice', () => {
      // Seats from 1 (28.00) to 3 (84.00) on 5 February at midnight, 562 of the period's 672 hours left.
      const pending = [
        { code: 'seat', description: 'Unused time on seat', amount: '-23.42', period_start: '2026-02-05T00:00:00.000Z', period_end: '2026-02-28T10:00:00.000Z', price_version: 1, tax_code: 'standard' },
        { code: 'seat', description: 'Remaining time on seat', amount: '70.25', period_start: '2026-02-05T00:00:00.000Z', period_end: '2026-02-28T10:00:00.000Z', price_version: 1, tax_code: 'standard' },
      ];
      const seats: SubscriptionEvent = { type: 'SubscriptionQuantityChanged', data: { subscription_id: id, meter: 'seat', quantity: 3, previous_quantity: 1, changed_at: '2026-02-05T00:00:00.000Z', prorations: pending } };
      const close = { type: 'ClosePeriod' as const, data: { subscription_id: id, period_end: '2026-02-28T10:00:00.000Z' } };

      it('cancels now with the pending prorations, then the credit for the unused time at the new quantity', () => {
        const credit = { ...CREDIT[0], amount: '-70.25' };
        spec
          .given([created, seats])
          .when({ ...cancel('now'), data: { ...cancel('now').data, charges: [{ ...CHARGES[0], amount: '84.00' }] } })
          .then([{ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: '2026-02-05T00:00:00.000Z', reason: 'too expensive', prorations: [...pending, credit] } }]);
      });

      it('cancels at period end with the pending prorations', () => {
        const scheduled: SubscriptionEvent = { type: 'SubscriptionCancellationScheduled', data: { subscription_id: id, cancel_at: '2026-02-28T10:00:00.000Z', reason: null } };
        spec.given([created, seats, scheduled]).when(close).then([{ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: '2026-02-28T10:00:00.000Z', reason: null, prorations: pending } }]);
      });

      it('ends a commitment without renewal with the pending prorations', () =>
        spec
          .given([{ ...created, data: { ...created.data, commitment: { periods: 1, renewal: 'none' } } }, { ...activated, data: { ...activated.data, commitment_end: '2026-02-28T10:00:00.000Z' } } as SubscriptionEvent, seats])
          .when(close)
          .then([billed({ type: 'SubscriptionEnded', data: { subscription_id: id, ended_at: '2026-02-28T10:00:00.000Z', prorations: pending } }, { billing_reason: 'subscription_cycle', usage: usage(T0, FEB28) })]));

      it('bills them once: a renewal moves them onto its invoice, and a cancellation after it carries none', () => {
        const renewed: SubscriptionEvent = { type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: '2026-02-28T10:00:00.000Z', period_end: '2026-03-31T10:00:00.000Z', terms: { ...terms, prorations: pending }, commitment_end: null } };
        spec.given([created, activated, seats]).when(close).then([billed({ ...renewed, data: { ...renewed.data, terms: { ...terms, quantities: { seat: 3 }, prorations: pending } } } as SubscriptionEvent, { billing_reason: 'subscription_cycle', period_number: 2, usage: usage(T0, FEB28) })]);
        // Canceled as the period starts: no usage yet, nothing pending, the final invoice has nothing to bill.
        spec
          .given([created, activated, seats, renewed])
          .when({ ...cancel('now'), data: { ...cancel('now').data, at: '2026-02-28T10:00:00.000Z', charges: [] } })
          .then([billed({ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: '2026-02-28T10:00:00.000Z', reason: 'too expensive', prorations: [] } }, { billing_reason: 'subscription_cancel', period_number: 2 })]);
      });
    });
  });

  describe('past due and recovery', () => {
    const markPastDue = (invoice: string) => ({ type: 'MarkPastDue' as const, data: { subscription_id: id, invoice_id: invoice } });
    const paid = (invoice: string) => ({ type: 'RecordInvoicePaid' as const, data: { subscription_id: id, invoice_id: invoice } });

    it('falls past due when an invoice payment fails, once: later failures while past due change nothing', () => {
      spec.given([created]).when(markPastDue('in_1')).then([pastDue]);
      spec.given([created, pastDue]).when(markPastDue('in_1')).thenNothingHappens();
      spec.given([created, pastDue]).when(markPastDue('in_2')).thenNothingHappens();
      spec.given([trialing]).when(markPastDue('in_1')).thenFails('subscription.invalid_state');
    });

    it('is active again when the invoice that made it past due is paid, as Stripe’s status follows that invoice', () => {
      const recovered: SubscriptionEvent = { type: 'SubscriptionRecovered', data: { subscription_id: id, invoice_id: 'in_1' } };
      spec.given([created, pastDue]).when(paid('in_1')).then([recovered]);
      spec.given([created, pastDue, recovered]).when(paid('in_1')).thenNothingHappens();
      spec.given([created, pastDue]).when(paid('in_9')).thenNothingHappens();
      spec.given([created, pastDue, recovered]).when(markPastDue('in_3')).then([{ type: 'SubscriptionPastDue', data: { subscription_id: id, invoice_id: 'in_3' } }]);
    });

    it('announces the activation of a subscription created active once the first of its invoices is paid, once', () => {
      const firstPaid: SubscriptionEvent = { type: 'SubscriptionFirstInvoicePaid', data: { subscription_id: id, invoice_id: 'in_1' } };
      spec.given([created, activatedAtCreation]).when(paid('in_1')).then([firstPaid]);
      spec.given([created, activatedAtCreation, firstPaid]).when(paid('in_2')).thenNothingHappens();
      // Activated at a trial's end, or created before the announcement waited for the payment: announced already.
      spec.given([created, activated]).when(paid('in_1')).thenNothingHappens();
      // Paused before anything was paid: the first payment after the resume announces it.
      spec.given([created, activatedAtCreation, paused]).when(paid('in_1')).thenNothingHappens();
      spec.given([created, activatedAtCreation, paused, { type: 'SubscriptionResumed', data: { subscription_id: id, resumed_at: '2026-02-06T00:00:00.000Z', automatic: false } }])
        .when(paid('in_1'))
        .then([firstPaid]);
    });

    it('announces the activation with the recovery when the first payment failed, and not again', () => {
      const recovered: SubscriptionEvent = { type: 'SubscriptionRecovered', data: { subscription_id: id, invoice_id: 'in_1' } };
      spec.given([created, activatedAtCreation, pastDue]).when(paid('in_2')).thenNothingHappens();
      spec.given([created, activatedAtCreation, pastDue]).when(paid('in_1')).then([recovered]);
      spec.given([created, activatedAtCreation, pastDue, recovered]).when(paid('in_2')).thenNothingHappens();
    });

    it('can be canceled while past due, crediting unused time', () =>
      spec.given([created, pastDue]).when({ type: 'CancelSubscription', data: { subscription_id: id, at: '2026-02-05T00:00:00.000Z', when: 'now', reason: null, charges: CHARGES } }).then([
        { type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: '2026-02-05T00:00:00.000Z', reason: null, prorations: CREDIT } },
      ]));
  });

  describe('waiting for the first payment (payment_behavior: default_incomplete)', () => {
    const incomplete: CreateSubscription = { ...create, data: { ...create.data, payment_behavior: 'default_incomplete' } };
    const pending: SubscriptionCreated = { type: 'SubscriptionCreated', data: { ...created.data, status: 'pending_activation' } };
    const awaiting: SubscriptionEvent = billed({
      type: 'SubscriptionAwaitingPayment',
      data: { subscription_id: id, period_start: T0, period_end: '2026-02-28T10:00:00.000Z', terms, expires_at: '2026-02-01T09:00:00.000Z' },
    });
    const expire = { type: 'ExpireIncomplete' as const, data: { subscription_id: id, at: '2026-02-01T09:00:00.000Z' } };

    it('is created pending activation, its first invoice awaited for 23 hours', () => spec.given([]).when(incomplete).then([pending, awaiting]));

    it('starts with a trial as usual: there is nothing to pay first', () =>
      spec.given([]).when({ ...incomplete, data: { ...incomplete.data, trial_days: 14 } }).then([trialing]));

    it('is activated for its first period once the invoice is paid', () =>
      spec.given([pending, awaiting]).when({ type: 'RecordInvoicePaid', data: { subscription_id: id, invoice_id: 'inv_1' } }).then([activated]));

    it('expires when the wait ends unpaid, and not once it was activated', () => {
      spec.given([pending, awaiting]).when(expire).then([{ type: 'SubscriptionIncompleteExpired', data: { subscription_id: id, expired_at: expire.data.at, period_start: T0 } }]);
      spec.given([pending, awaiting, activated]).when(expire).thenNothingHappens();
    });
  });

  describe('warnings', () => {
    it('warns of a trial’s end once it is near, unless the trial will be canceled', () => {
      spec.given([trialing]).when({ type: 'WarnTrialEnding', data: { subscription_id: id } }).then([{ type: 'SubscriptionTrialWillEnd', data: { subscription_id: id, trial_end: '2026-02-14T10:00:00.000Z' } }]);
      spec.given([created]).when({ type: 'WarnTrialEnding', data: { subscription_id: id } }).thenNothingHappens();
    });
  });

  describe('metadata and the default payment method', () => {
    it('merges metadata and states what it was', () =>
      spec
        .given([{ ...created, data: { ...created.data, metadata: { team: 'a' } } }])
        .when({ type: 'UpdateSubscription', data: { subscription_id: id, at: T0, metadata: { team: 'b' } } })
        .then([{ type: 'SubscriptionUpdated', data: { subscription_id: id, metadata: { team: 'b' }, previous_attributes: { metadata: { team: 'a' } } } }]));

    it('changes nothing when nothing differs', () => spec.given([created]).when({ type: 'UpdateSubscription', data: { subscription_id: id, at: T0, metadata: {} } }).thenNothingHappens());

    it('refuses metadata over the limits, and then changes nothing else either', () =>
      spec
        .given([created])
        .when({ type: 'UpdateSubscription', data: { subscription_id: id, at: T0, default_payment_method_id: 'pm_1', metadata: { ['k'.repeat(41)]: 'v' } } })
        .thenFails('request.invalid_metadata'));
  });

  describe('plan changes', () => {
    const BASIC = [{ code: 'base', description: 'base', amount: '28.00', price_version: 1, tax_code: 'standard' }];
    const PREMIUM = [{ code: 'base', description: 'base', amount: '56.00', price_version: 4, tax_code: 'standard' }];
    const planChange = (proration_behavior: 'create_prorations' | 'none' | 'always_invoice'): PlanChange => ({
      plan_code: 'premium',
      currency: 'EUR',
      cadence: { interval: 'month', count: 1 },
      proration_behavior,
      before: BASIC,
      after: PREMIUM,
    });
    const change = (proration_behavior: 'create_prorations' | 'none' | 'always_invoice', plan = planChange(proration_behavior)) => ({
      type: 'UpdateSubscription' as const,
      data: { subscription_id: id, at: '2026-02-14T10:00:00.000Z', plan },
    });
    // Halfway through the 28-day period: half of 28.00 credited, half of 56.00 charged.
    const prorations = [
      { code: 'base', description: 'Unused time on base', amount: '-14.00', period_start: '2026-02-14T10:00:00.000Z', period_end: '2026-02-28T10:00:00.000Z', price_version: 1, tax_code: 'standard' },
      { code: 'base', description: 'Remaining time on base', amount: '28.00', period_start: '2026-02-14T10:00:00.000Z', period_end: '2026-02-28T10:00:00.000Z', price_version: 4, tax_code: 'standard' },
    ];
    const changed = (invoice_now: boolean): SubscriptionEvent => ({
      type: 'SubscriptionPlanChanged',
      data: { subscription_id: id, plan_code: 'premium', previous_plan_code: 'pro', changed_at: '2026-02-14T10:00:00.000Z', prorations, invoice_now },
    });
    const close = { type: 'ClosePeriod' as const, data: { subscription_id: id, period_end: '2026-02-28T10:00:00.000Z' } };

    it('prorates by default, and bills the prorations on the next period’s invoice', () => {
      spec.given([created, activated]).when(change('create_prorations')).then([changed(false)]);
      spec.given([created, activated, changed(false)]).when(close).then([
billed(
          { type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: '2026-02-28T10:00:00.000Z', period_end: '2026-03-31T10:00:00.000Z', terms: { ...terms, plan_code: 'premium', prorations }, commitment_end: null } },
          { billing_reason: 'subscription_cycle', period_number: 2, plan_code: 'premium', usage: usage(T0, FEB28, 'premium') },
        ),
      ]);
    });

    it('invoices the prorations at once with always_invoice, so the next period carries none', () => {
      spec.given([created, activated]).when(change('always_invoice')).then([billed(changed(true), { billing_reason: 'subscription_update' })]);
      spec.given([created, activated, changed(true)]).when(close).then([
billed(
          { type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: '2026-02-28T10:00:00.000Z', period_end: '2026-03-31T10:00:00.000Z', terms: { ...terms, plan_code: 'premium' }, commitment_end: null } },
          { billing_reason: 'subscription_cycle', period_number: 2, plan_code: 'premium', usage: usage(T0, FEB28, 'premium') },
        ),
      ]);
    });

    it('switches at the next boundary without prorating with none', () => {
      const scheduled: SubscriptionEvent = { type: 'SubscriptionPlanChangeScheduled', data: { subscription_id: id, plan_code: 'premium', effective_at: '2026-02-28T10:00:00.000Z' } };
      spec.given([created, activated]).when(change('none')).then([scheduled]);
      spec.given([created, activated, scheduled]).when(close).then([
billed(
          { type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: '2026-02-28T10:00:00.000Z', period_end: '2026-03-31T10:00:00.000Z', terms: { ...terms, plan_code: 'premium' }, commitment_end: null } },
          { billing_reason: 'subscription_cycle', period_number: 2, plan_code: 'premium', usage: usage(T0, FEB28) },
        ),
      ]);
    });

    it('lets a later change made now replace one scheduled for the boundary: the boundary keeps the plan changed now', () => {
      const scheduled: SubscriptionEvent = { type: 'SubscriptionPlanChangeScheduled', data: { subscription_id: id, plan_code: 'premium', effective_at: '2026-02-28T10:00:00.000Z' } };
      const toMax = change('create_prorations', { ...planChange('create_prorations'), plan_code: 'max' });
      const changedToMax: SubscriptionEvent = { ...changed(false), data: { ...(changed(false).data as object), plan_code: 'max' } } as SubscriptionEvent;
      spec.given([created, activated, scheduled]).when(toMax).then([changedToMax]);
      spec.given([created, activated, scheduled, changedToMax]).when(close).then([
billed(
          { type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: '2026-02-28T10:00:00.000Z', period_end: '2026-03-31T10:00:00.000Z', terms: { ...terms, plan_code: 'max', prorations }, commitment_end: null } },
          { billing_reason: 'subscription_cycle', period_number: 2, plan_code: 'max', usage: usage(T0, FEB28, 'max') },
        ),
      ]);
    });

    it('lets a change back to the current plan now cancel the one scheduled for the boundary', () => {
      const scheduled: SubscriptionEvent = { type: 'SubscriptionPlanChangeScheduled', data: { subscription_id: id, plan_code: 'premium', effective_at: '2026-02-28T10:00:00.000Z' } };
      const back = change('create_prorations', { ...planChange('create_prorations'), plan_code: 'pro', after: BASIC });
      const stayed: SubscriptionEvent = { type: 'SubscriptionPlanChanged', data: { subscription_id: id, plan_code: 'pro', previous_plan_code: 'pro', changed_at: '2026-02-14T10:00:00.000Z', prorations: [], invoice_now: false } };
      spec.given([created, activated, scheduled]).when(back).then([stayed]);
      spec.given([created, activated, scheduled, stayed]).when(close).then([
        billed(
          { type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: '2026-02-28T10:00:00.000Z', period_end: '2026-03-31T10:00:00.000Z', terms, commitment_end: null } },
          { billing_reason: 'subscription_cycle', period_number: 2, usage: usage(T0, FEB28) },
        ),
      ]);
    });

    it('does not prorate in a trial', () =>
      spec.given([trialing]).when(change('create_prorations')).then([
        { type: 'SubscriptionPlanChanged', data: { subscription_id: id, plan_code: 'premium', previous_plan_code: 'pro', changed_at: '2026-02-14T10:00:00.000Z', prorations: [], invoice_now: false } },
      ]));

    it('refuses a plan in another currency or with another interval', () => {
      spec.given([created, activated]).when(change('create_prorations', { ...planChange('create_prorations'), currency: 'USD' })).thenFails('subscription.plan_currency_mismatch');
      spec.given([created, activated]).when(change('create_prorations', { ...planChange('create_prorations'), cadence: { interval: 'year', count: 1 } })).thenFails('subscription.plan_interval_mismatch');
      spec.given([created, canceled]).when(change('create_prorations')).thenFails('subscription.already_canceled');
    });
  });

  describe('quantities', () => {
    const before = [{ code: 'seats', description: 'seats', amount: '28.00', price_version: 1, tax_code: 'standard' }];
    const after = [{ code: 'seats', description: 'seats', amount: '84.00', price_version: 1, tax_code: 'standard' }];
    const quantity = (effective_at: 'now' | 'next_period') => ({ type: 'ChangeQuantity' as const, data: { subscription_id: id, at: '2026-02-21T10:00:00.000Z', meter: 'seats', quantity: 3, effective_at, before, after } });

    it('changes now with prorations for the rest of the period (a quarter of it)', () =>
      spec.given([created, activated]).when(quantity('now')).then([
        {
          type: 'SubscriptionQuantityChanged',
          data: {
            subscription_id: id,
            meter: 'seats',
            quantity: 3,
            previous_quantity: null,
            changed_at: '2026-02-21T10:00:00.000Z',
            prorations: [
              { code: 'seats', description: 'Unused time on seats', amount: '-7.00', period_start: '2026-02-21T10:00:00.000Z', period_end: '2026-02-28T10:00:00.000Z', price_version: 1, tax_code: 'standard' },
              { code: 'seats', description: 'Remaining time on seats', amount: '21.00', period_start: '2026-02-21T10:00:00.000Z', period_end: '2026-02-28T10:00:00.000Z', price_version: 1, tax_code: 'standard' },
            ],
          },
        },
      ]));

    it('schedules a change for the next period, which the renewal applies', () => {
      const scheduled: SubscriptionEvent = { type: 'SubscriptionQuantityScheduled', data: { subscription_id: id, meter: 'seats', quantity: 3, effective_at: '2026-02-28T10:00:00.000Z' } };
      spec.given([created, activated]).when(quantity('next_period')).then([scheduled]);
      spec.given([created, activated, scheduled]).when({ type: 'ClosePeriod', data: { subscription_id: id, period_end: '2026-02-28T10:00:00.000Z' } }).then([
billed(
          { type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: '2026-02-28T10:00:00.000Z', period_end: '2026-03-31T10:00:00.000Z', terms: { ...terms, quantities: { seats: 3 } }, commitment_end: null } },
          { billing_reason: 'subscription_cycle', period_number: 2, usage: usage(T0, FEB28) },
        ),
      ]);
    });

    it('lets a quantity changed now replace the one scheduled for the boundary, even when it keeps today’s quantity', () => {
      const scheduled: SubscriptionEvent = { type: 'SubscriptionQuantityScheduled', data: { subscription_id: id, meter: 'seats', quantity: 5, effective_at: '2026-02-28T10:00:00.000Z' } };
      const close = { type: 'ClosePeriod' as const, data: { subscription_id: id, period_end: '2026-02-28T10:00:00.000Z' } };
      const kept: SubscriptionEvent = { type: 'SubscriptionQuantityChanged', data: { subscription_id: id, meter: 'seats', quantity: 1, previous_quantity: 1, changed_at: '2026-02-21T10:00:00.000Z', prorations: [] } };
      const onOne: SubscriptionEvent = { type: 'SubscriptionActivated', data: { subscription_id: id, period_start: T0, period_end: '2026-02-28T10:00:00.000Z', terms: { ...terms, quantities: { seats: 1 } }, commitment_end: null } };
      spec.given([created, onOne, scheduled]).when({ ...quantity('now'), data: { ...quantity('now').data, quantity: 1, after: before } }).then([kept]);
      spec.given([created, onOne, scheduled, kept]).when(close).then([
billed(
          { type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: '2026-02-28T10:00:00.000Z', period_end: '2026-03-31T10:00:00.000Z', terms: { ...terms, quantities: { seats: 1 } }, commitment_end: null } },
          { billing_reason: 'subscription_cycle', period_number: 2, usage: usage(T0, FEB28) },
        ),
      ]);
      spec.given([created, onOne]).when({ ...quantity('now'), data: { ...quantity('now').data, quantity: 1, after: before } }).thenNothingHappens();
    });

    it('refuses a negative or fractional quantity', () => {
      spec.given([created, activated]).when({ ...quantity('now'), data: { ...quantity('now').data, quantity: -1 } }).thenFails('subscription.invalid_quantity');
      spec.given([created, activated]).when({ ...quantity('now'), data: { ...quantity('now').data, quantity: 1.5 } }).thenFails('subscription.invalid_quantity');
    });
  });

  describe('commitments', () => {
    const committed = (renewal: 'auto' | 'none'): SubscriptionCreated => ({ ...created, data: { ...created.data, commitment: { periods: 2, renewal } } });
    const activatedCommitted: SubscriptionEvent = { type: 'SubscriptionActivated', data: { subscription_id: id, period_start: T0, period_end: '2026-02-28T10:00:00.000Z', terms, commitment_end: '2026-03-31T10:00:00.000Z', first_payment_pending: true } };
    const renewed: SubscriptionEvent = { type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: '2026-02-28T10:00:00.000Z', period_end: '2026-03-31T10:00:00.000Z', terms, commitment_end: '2026-03-31T10:00:00.000Z' } };
    const closeMarch = { type: 'ClosePeriod' as const, data: { subscription_id: id, period_end: '2026-03-31T10:00:00.000Z' } };

    it('runs for its periods from activation', () => spec.given([]).when({ ...create, data: { ...create.data, commitment: { periods: 2, renewal: 'none' } } }).then([committed('none'), billed(activatedCommitted)]));

    it('warns 30 days before it ends, once per end', () => {
      const warn = { type: 'WarnCommitmentEnding' as const, data: { subscription_id: id, commitment_end: '2026-03-31T10:00:00.000Z' } };
      spec.given([committed('none'), activatedCommitted]).when(warn).then([{ type: 'SubscriptionCommitmentEnding', data: { subscription_id: id, commitment_end: '2026-03-31T10:00:00.000Z', renewal: 'none' } }]);
      spec.given([committed('none'), activatedCommitted]).when({ ...warn, data: { ...warn.data, commitment_end: '2026-01-31T10:00:00.000Z' } }).thenNothingHappens();
    });

    it('ends the subscription at its end without renewal', () =>
      spec
        .given([committed('none'), activatedCommitted, renewed])
        .when(closeMarch)
        .then([billed({ type: 'SubscriptionEnded', data: { subscription_id: id, ended_at: MAR31, prorations: [] } }, { billing_reason: 'subscription_cycle', period_number: 2, usage: usage(FEB28, MAR31) })]));

    it('starts a new term of the same length with automatic renewal', () =>
      spec.given([committed('auto'), activatedCommitted, renewed]).when(closeMarch).then([
billed(
          { type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: '2026-03-31T10:00:00.000Z', period_end: '2026-04-30T10:00:00.000Z', terms, commitment_end: '2026-05-31T10:00:00.000Z' } },
          { billing_reason: 'subscription_cycle', period_number: 3, usage: usage(FEB28, MAR31) },
        ),
      ]));
  });

  describe('the invoice an event calls for', () => {
    const cancelNow = { type: 'CancelSubscription' as const, data: { subscription_id: id, at: '2026-02-05T00:00:00.000Z', when: 'now' as const, reason: null, charges: [] } };
    const canceledNow = { type: 'SubscriptionCanceled' as const, data: { subscription_id: id, canceled_at: '2026-02-05T00:00:00.000Z', reason: null, prorations: [] } };

    it('carries its basis, from the state: who pays, the coupons and the paid period they discount, the usage up to the end, collected as a pause says', () =>
      spec
        .given([{ ...created, data: { ...created.data, coupons: ['WELCOME'] } }, activated, paused])
        .when(cancelNow)
        .then([billed(canceledNow, { billing_reason: 'subscription_cancel', coupons: ['WELCOME'], usage: usage(T0, '2026-02-05T00:00:00.000Z'), collection: 'void_invoices' })]));

    it('carries none before a first paid period, nor when an activation comes with the payment of the invoice its wait issued', () => {
      spec.given([trialing]).when(cancelNow).then([canceledNow]);
      const pending: SubscriptionCreated = { type: 'SubscriptionCreated', data: { ...created.data, status: 'pending_activation' } };
      spec.given([pending]).when({ type: 'RecordInvoicePaid', data: { subscription_id: id, invoice_id: 'in_1' } }).then([activated]);
    });
  });

  it('knows no subscription before it is created', () =>
    spec.given([]).when({ type: 'PauseSubscription', data: { subscription_id: id, at: T0, until: null, behavior: 'void_invoices' } }).thenFails('subscription.not_found'));

  describe('its timers', () => {
    const timed = DeciderSpecification.for(subscriptionDecider, subscriptionTimers);
    const FEB = '2026-02-28T10:00:00.000Z';
    const MAR = '2026-03-31T10:00:00.000Z';
    const TRIAL_END = '2026-02-14T10:00:00.000Z';
    /** Everything an activation or a renewal does to the timers: its period's end replaces the others. */
    const renewalTimers = (periodEnd: string) => [
      { cancelEvery: 'incomplete_expiry:' },
      { cancel: 'trial_will_end' },
      { cancel: 'trial_end' },
      { cancelEvery: 'period_end:' },
      { schedule: { name: `period_end:${periodEnd}`, due_at: periodEnd, command: { type: 'ClosePeriod' as const, data: { subscription_id: id, period_end: periodEnd } } } },
    ];

    it('a trial sets its warning three days before its end, and its end, each coming back as its command', () =>
      timed.given([]).when({ ...create, data: { ...create.data, trial_days: 14 } }).thenTimers(T0, [
        { schedule: { name: 'trial_will_end', due_at: '2026-02-11T10:00:00.000Z', command: { type: 'WarnTrialEnding', data: { subscription_id: id } } } },
        { schedule: { name: 'trial_end', due_at: TRIAL_END, command: { type: 'EndTrial', data: { subscription_id: id, at: TRIAL_END } } } },
      ]));

    it('a trial shorter than the warning’s notice is warned at once', () =>
      timed.given([]).when({ ...create, data: { ...create.data, trial_days: 2 } }).thenTimers(T0, [
        { schedule: { name: 'trial_will_end', due_at: T0, command: { type: 'WarnTrialEnding', data: { subscription_id: id } } } },
        { schedule: { name: 'trial_end', due_at: '2026-02-02T10:00:00.000Z', command: { type: 'EndTrial', data: { subscription_id: id, at: '2026-02-02T10:00:00.000Z' } } } },
      ]));

    it('an activation sets the end of its period; the end renews it and sets the next one', () => {
      timed.given([]).when(create).thenTimers(T0, renewalTimers(FEB));
      timed.given([created, activatedAtCreation]).when({ type: 'ClosePeriod', data: { subscription_id: id, period_end: FEB } }).thenTimers(FEB, renewalTimers(MAR));
    });

    it('the period end’s command renews once: fired again, or late, it decides nothing', () => {
      const renewed: SubscriptionEvent = { type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: FEB, period_end: MAR, terms, commitment_end: null } };
      timed.given([created, activatedAtCreation, renewed]).when({ type: 'ClosePeriod', data: { subscription_id: id, period_end: FEB } }).thenNothingHappens();
    });

    it('the trial’s end activates the subscription, which ends the trial’s timers and sets its first period’s end', () =>
      timed.given([trialing]).when({ type: 'EndTrial', data: { subscription_id: id, at: TRIAL_END } }).thenTimers(TRIAL_END, renewalTimers('2026-03-14T10:00:00.000Z')));

    it('a commitment sets its warning 30 days before it ends', () =>
      timed
        .given([])
        .when({ ...create, data: { ...create.data, commitment: { periods: 3, renewal: 'none' } } })
        .thenTimers(T0, [
          ...renewalTimers(FEB),
          {
            schedule: {
              name: 'commitment_ending:2026-04-30T10:00:00.000Z',
              due_at: '2026-03-31T10:00:00.000Z',
              command: { type: 'WarnCommitmentEnding', data: { subscription_id: id, commitment_end: '2026-04-30T10:00:00.000Z' } },
            },
          },
        ]));

    it('a pause with an end sets the automatic resume, named by that end; a resume cancels it', () => {
      const until = '2026-04-01T00:00:00.000Z';
      timed
        .given([created, activatedAtCreation])
        .when({ type: 'PauseSubscription', data: { subscription_id: id, at: '2026-02-05T00:00:00.000Z', until, behavior: 'keep_as_draft' } })
        .thenTimers('2026-02-05T00:00:00.000Z', [{ schedule: { name: `resume:${until}`, due_at: until, command: { type: 'ResumeSubscription', data: { subscription_id: id, at: until, automatic: true, until } } } }]);
      const pausedUntil: SubscriptionEvent = { type: 'SubscriptionPaused', data: { subscription_id: id, paused_at: '2026-02-05T00:00:00.000Z', until, behavior: 'keep_as_draft' } };
      timed.given([created, activatedAtCreation, pausedUntil]).when({ type: 'ResumeSubscription', data: { subscription_id: id, at: '2026-02-10T00:00:00.000Z', automatic: false } }).thenTimers('2026-02-10T00:00:00.000Z', [{ cancelEvery: 'resume:' }]);
    });

    it('a subscription awaiting its first payment sets the end of its wait (its activation cancels it)', () => {
      const expires = '2026-02-01T09:00:00.000Z';
      timed
        .given([])
        .when({ ...create, data: { ...create.data, payment_behavior: 'default_incomplete' } })
        .thenTimers(T0, [{ schedule: { name: `incomplete_expiry:${expires}`, due_at: expires, command: { type: 'ExpireIncomplete', data: { subscription_id: id, at: expires } } } }]);
    });

    it('a cancellation at the period’s end drops the trial’s warning; a cancellation now ends every timer', () => {
      timed.given([trialing]).when({ type: 'CancelSubscription', data: { subscription_id: id, at: T0, when: 'period_end', reason: null, charges: [] } }).thenTimers(T0, [{ cancel: 'trial_will_end' }]);
      timed.given([created, activatedAtCreation]).when({ type: 'CancelSubscription', data: { subscription_id: id, at: FEB, when: 'now', reason: null, charges: [] } }).thenTimers(FEB, [{ cancelEvery: '' }]);
    });

    it('the trial’s warning, fired, cancels its own timer (a stream written before timers were the subscription’s ends it too)', () =>
      timed.given([trialing]).when({ type: 'WarnTrialEnding', data: { subscription_id: id } }).thenTimers('2026-02-11T10:00:00.000Z', [{ cancel: 'trial_will_end' }]));
  });
});
