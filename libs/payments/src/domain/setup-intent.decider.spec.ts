import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { confirmableSetupIntent, setupIntentDecider, type CreateSetupIntent } from './setup-intent.decider';
import type { SetupIntentEvent } from './setup-intent.events';

const spec = DeciderSpecification.for(setupIntentDecider);
const setup_intent_id = 'seti_01JSETUP0000000000000000';
const customer_id = 'cus_01JCUSTOMER00000000000000';
const create: CreateSetupIntent = {
  type: 'CreateSetupIntent',
  data: { setup_intent_id, customer_id, payment_method_types: ['card'], usage: 'off_session', set_as_default: false, description: null, metadata: {}, client_secret: 'seti_x_secret_y' },
};
const created: SetupIntentEvent = { type: 'SetupIntentCreated', data: create.data };
const succeed = (payment_method_id: string) => ({ type: 'RecordSetupIntentSuccess' as const, data: { setup_intent_id, payment_method_id } });
const succeeded: SetupIntentEvent = { type: 'SetupIntentSucceeded', data: { setup_intent_id, customer_id, payment_method_id: 'pm_1' } };
const cancel = { type: 'CancelSetupIntent' as const, data: { setup_intent_id, reason: null } };
const canceled: SetupIntentEvent = { type: 'SetupIntentCanceled', data: { setup_intent_id, customer_id, reason: null } };

describe('setup intent decider', () => {
  it('is created once', () => {
    spec.given([]).when(create).then([created]);
    spec.given([created]).when(create).thenNothingHappens();
  });

  it('succeeds with one payment method; the same one again changes nothing, another is refused', () => {
    spec.given([created]).when(succeed('pm_1')).then([succeeded]);
    spec.given([created, succeeded]).when(succeed('pm_1')).thenNothingHappens();
    spec.given([created, succeeded]).when(succeed('pm_2')).thenFails('setup_intent.unexpected_state');
  });

  it('is canceled while it waits, once, and not after it succeeded', () => {
    spec.given([created]).when(cancel).then([canceled]);
    spec.given([created, canceled]).when(cancel).thenNothingHappens();
    spec.given([created, succeeded]).when(cancel).thenFails('setup_intent.unexpected_state');
    spec.given([created, canceled]).when(succeed('pm_1')).thenFails('setup_intent.unexpected_state');
  });

  it('takes a method of the types it was created for only', () => {
    const state = setupIntentDecider.evolve(setupIntentDecider.initialState(), created);
    expect(confirmableSetupIntent(state, setup_intent_id, 'card')).toMatchObject({ status: 'requires_payment_method' });
    expect(() => confirmableSetupIntent(state, setup_intent_id, 'paypal')).toThrow(expect.objectContaining({ code: 'setup_intent.payment_method_type_not_allowed' }));
    expect(() => confirmableSetupIntent(setupIntentDecider.initialState(), setup_intent_id, 'card')).toThrow(expect.objectContaining({ code: 'setup_intent.not_found' }));
  });
});
