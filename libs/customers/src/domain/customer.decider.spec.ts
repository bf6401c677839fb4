import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { customerDecider, type CreateCustomer, type DeleteTaxId, type UpdateCustomer } from './customer.decider';
import type { CustomerCreated, CustomerEvent, CustomerTaxIdAdded } from './customer.events';

const spec = DeciderSpecification.for(customerDecider);
const id = 'cus_01JCUSTOMER00000000000000';

const create: CreateCustomer = {
  type: 'CreateCustomer',
  data: { customer_id: id, email: 'ada@example.com', name: 'Ada', billing_address: null, metadata: { plan: 'gold' } },
};
const created: CustomerCreated = { type: 'CustomerCreated', data: create.data };
const taxIdAdded: CustomerTaxIdAdded = {
  type: 'CustomerTaxIdAdded',
  data: { customer_id: id, tax_id_id: 'txi_1', type: 'eu_vat', value: 'DE136695976' },
};
const taxIdDeleted: CustomerEvent = { type: 'CustomerTaxIdDeleted', data: { customer_id: id, tax_id_id: 'txi_1' } };

describe('customer decider', () => {
  describe('CreateCustomer', () => {
    it('creates the customer', () => spec.given([]).when(create).then([created]));

    it('does nothing when the customer exists (a retried create)', () => spec.given([created]).when(create).thenNothingHappens());

    it('refuses more than 50 metadata keys', () => {
      const metadata = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
      spec.given([]).when({ ...create, data: { ...create.data, metadata } }).thenFails('request.invalid_metadata');
    });

    it('refuses a metadata value over 500 bytes', () => {
      spec.given([]).when({ ...create, data: { ...create.data, metadata: { note: 'é'.repeat(251) } } }).thenFails('request.invalid_metadata');
    });
  });

  describe('UpdateCustomer', () => {
    it('records only the fields that change', () =>
      spec
        .given([created])
        .when({ type: 'UpdateCustomer', data: { customer_id: id, email: 'ada@example.com', name: 'Ada Lovelace' } })
        .then([{ type: 'CustomerUpdated', data: { customer_id: id, name: 'Ada Lovelace' } }]));

    it('merges metadata, and an empty string removes a key', () =>
      spec
        .given([created])
        .when({ type: 'UpdateCustomer', data: { customer_id: id, metadata: { plan: '', tier: '2' } } })
        .then([{ type: 'CustomerUpdated', data: { customer_id: id, metadata: { tier: '2' } } }]));

    it('does nothing when nothing changes', () =>
      spec.given([created]).when({ type: 'UpdateCustomer', data: { customer_id: id, name: 'Ada', metadata: { plan: 'gold' } } }).thenNothingHappens());

    it('sets and clears the default payment method, naming the one it replaces', () => {
      const attached: CustomerEvent = { type: 'CustomerPaymentMethodAttached', data: { customer_id: id, payment_method_id: 'pm_1' } };
      const set: CustomerEvent = { type: 'CustomerDefaultPaymentMethodChanged', data: { customer_id: id, payment_method_id: 'pm_1', previous_payment_method_id: null } };
      spec.given([created, attached]).when({ type: 'UpdateCustomer', data: { customer_id: id, default_payment_method_id: 'pm_1' } }).then([set]);
      spec
        .given([created, attached, set])
        .when({ type: 'UpdateCustomer', data: { customer_id: id, default_payment_method_id: null } })
        .then([{ type: 'CustomerDefaultPaymentMethodChanged', data: { customer_id: id, payment_method_id: null, previous_payment_method_id: 'pm_1' } }]);
    });

    it('refuses a default payment method that is not attached to the customer', () =>
      spec.given([created]).when({ type: 'UpdateCustomer', data: { customer_id: id, default_payment_method_id: 'pm_other' } }).thenFails('customer.payment_method_not_attached'));

    it('records other changes and the new default together', () => {
      const attached: CustomerEvent = { type: 'CustomerPaymentMethodAttached', data: { customer_id: id, payment_method_id: 'pm_1' } };
      spec
        .given([created, attached])
        .when({ type: 'UpdateCustomer', data: { customer_id: id, name: 'Ada L.', default_payment_method_id: 'pm_1' } })
        .then([
          { type: 'CustomerUpdated', data: { customer_id: id, name: 'Ada L.' } },
          { type: 'CustomerDefaultPaymentMethodChanged', data: { customer_id: id, payment_method_id: 'pm_1', previous_payment_method_id: null } },
        ]);
    });

    it('fails for a customer that does not exist', () =>
      spec.given([]).when({ type: 'UpdateCustomer', data: { customer_id: id, name: 'x' } }).thenFails('customer.not_found'));

    describe('billing address', () => {
      const munich = { line1: 'Marienplatz 1', city: 'Munich', region: 'BY', country: 'DE', postal_code: '80331' };
      const living: CustomerCreated = { type: 'CustomerCreated', data: { ...create.data, billing_address: munich } };
      const updateAddress = (billing_address: UpdateCustomer['data']['billing_address']): UpdateCustomer => ({ type: 'UpdateCustomer', data: { customer_id: id, billing_address } });

      it('merges the fields sent into the address and records the whole address', () =>
        spec
          .given([living])
          .when(updateAddress({ city: 'Augsburg', postal_code: '86150' }))
          .then([{ type: 'CustomerUpdated', data: { customer_id: id, billing_address: { ...munich, city: 'Augsburg', postal_code: '86150' } } }]));

      it('clears a field sent as null, and keeps the others', () =>
        spec
          .given([living])
          .when(updateAddress({ line1: null }))
          .then([{ type: 'CustomerUpdated', data: { customer_id: id, billing_address: { ...munich, line1: null } } }]));

      it('starts from an empty address when the customer has none', () =>
        spec
          .given([created])
          .when(updateAddress({ city: 'Munich' }))
          .then([{ type: 'CustomerUpdated', data: { customer_id: id, billing_address: { line1: null, city: 'Munich', region: null, country: null, postal_code: null } } }]));

      it('removes the whole address when it is sent as null', () =>
        spec.given([living]).when(updateAddress(null)).then([{ type: 'CustomerUpdated', data: { customer_id: id, billing_address: null } }]));

      it('does nothing when the merged address is the address as it is', () => {
        spec.given([living]).when(updateAddress({ city: 'Munich' })).thenNothingHappens();
        spec.given([living]).when(updateAddress({})).thenNothingHappens();
      });

      it('merges into the address the earlier updates left', () => {
        const moved: CustomerEvent = { type: 'CustomerUpdated', data: { customer_id: id, billing_address: { ...munich, city: 'Augsburg' } } };
        spec
          .given([living, moved])
          .when(updateAddress({ postal_code: '86150' }))
          .then([{ type: 'CustomerUpdated', data: { customer_id: id, billing_address: { ...munich, city: 'Augsburg', postal_code: '86150' } } }]);
      });
    });
  });

  describe('AddTaxId', () => {
    const add = { type: 'AddTaxId', data: { customer_id: id, tax_id_id: 'txi_1', type: 'eu_vat', value: 'DE136695976' } } as const;

    it('adds a tax ID pending validation', () => spec.given([created]).when(add).then([taxIdAdded]));

    it('refuses an unsupported type', () =>
      spec.given([created]).when({ ...add, data: { ...add.data, type: 'us_ein' } }).thenFails('tax_id.unsupported_type'));

    it('refuses the same value twice', () =>
      spec.given([created, taxIdAdded]).when({ ...add, data: { ...add.data, tax_id_id: 'txi_2' } }).thenFails('tax_id.already_exists'));

    it('takes a value again once its tax ID was deleted', () =>
      spec
        .given([created, taxIdAdded, taxIdDeleted])
        .when({ ...add, data: { ...add.data, tax_id_id: 'txi_2' } })
        .then([{ ...taxIdAdded, data: { ...taxIdAdded.data, tax_id_id: 'txi_2' } }]));
  });

  describe('DeleteTaxId', () => {
    const remove: DeleteTaxId = { type: 'DeleteTaxId', data: { customer_id: id, tax_id_id: 'txi_1' } };
    const invalidated: CustomerEvent = { type: 'CustomerTaxIdInvalidated', data: { customer_id: id, tax_id_id: 'txi_1', reason: 'check_digit' } };

    it('deletes a tax ID, whatever its validation says', () => {
      spec.given([created, taxIdAdded]).when(remove).then([taxIdDeleted]);
      spec.given([created, taxIdAdded, invalidated]).when(remove).then([taxIdDeleted]);
    });

    it('fails for a tax ID the customer does not have', () =>
      spec.given([created, taxIdAdded]).when({ ...remove, data: { ...remove.data, tax_id_id: 'txi_2' } }).thenFails('tax_id.not_found'));

    it('fails for a tax ID deleted already (Stripe answers 404 to a second delete)', () =>
      spec.given([created, taxIdAdded, taxIdDeleted]).when(remove).thenFails('tax_id.not_found'));

    it('fails for a customer that does not exist', () => spec.given([]).when(remove).thenFails('customer.not_found'));

    it('leaves no result to record for the deleted tax ID', () =>
      spec
        .given([created, taxIdAdded, taxIdDeleted])
        .when({ type: 'RecordTaxIdValidation', data: { customer_id: id, tax_id_id: 'txi_1', result: { valid: false, reason: 'x' } } })
        .thenFails('tax_id.not_found'));
  });

  describe('RecordTaxIdValidation', () => {
    it('invalidates a tax ID', () =>
      spec
        .given([created, taxIdAdded])
        .when({ type: 'RecordTaxIdValidation', data: { customer_id: id, tax_id_id: 'txi_1', result: { valid: false, reason: 'check_digit' } } })
        .then([{ type: 'CustomerTaxIdInvalidated', data: { customer_id: id, tax_id_id: 'txi_1', reason: 'check_digit' } }]));

    it('records a result once: a redelivered validation does nothing', () =>
      spec
        .given([created, taxIdAdded, { type: 'CustomerTaxIdVerified', data: { customer_id: id, tax_id_id: 'txi_1', country: 'DE' } }])
        .when({ type: 'RecordTaxIdValidation', data: { customer_id: id, tax_id_id: 'txi_1', result: { valid: false, reason: 'x' } } })
        .thenNothingHappens());
  });

  describe('payment methods', () => {
    const attached = (pm: string): CustomerEvent => ({ type: 'CustomerPaymentMethodAttached', data: { customer_id: id, payment_method_id: pm } });
    const attach = (pm: string, set_as_default = false) => ({ type: 'RecordPaymentMethodAttached' as const, data: { customer_id: id, payment_method_id: pm, set_as_default } });
    const detach = (pm: string) => ({ type: 'RecordPaymentMethodDetached' as const, data: { customer_id: id, payment_method_id: pm } });
    const defaultTo = (pm: string | null, previous: string | null): CustomerEvent => ({
      type: 'CustomerDefaultPaymentMethodChanged',
      data: { customer_id: id, payment_method_id: pm, previous_payment_method_id: previous },
    });

    it('attaches a method', () => spec.given([created]).when(attach('pm_1')).then([attached('pm_1')]));

    it('attaches a method as the new default, demoting the old one', () =>
      spec.given([created, attached('pm_1'), defaultTo('pm_1', null)]).when(attach('pm_2', true)).then([attached('pm_2'), defaultTo('pm_2', 'pm_1')]));

    it('does nothing when the method is attached already (a redelivered attach)', () => spec.given([created, attached('pm_1')]).when(attach('pm_1', true)).thenNothingHappens());

    it('refuses to attach to a customer that does not exist', () => spec.given([]).when(attach('pm_1')).thenFails('customer.not_found'));

    it('detaches the default method and clears the default', () =>
      spec.given([created, attached('pm_1'), defaultTo('pm_1', null)]).when(detach('pm_1')).then([
        { type: 'CustomerPaymentMethodDetached', data: { customer_id: id, payment_method_id: 'pm_1' } },
        defaultTo(null, 'pm_1'),
      ]));

    it('detaches a method that is not the default and keeps the default', () =>
      spec
        .given([created, attached('pm_1'), attached('pm_2'), defaultTo('pm_1', null)])
        .when(detach('pm_2'))
        .then([{ type: 'CustomerPaymentMethodDetached', data: { customer_id: id, payment_method_id: 'pm_2' } }]));

    it('does nothing for a method it does not have', () => spec.given([created]).when(detach('pm_1')).thenNothingHappens());
  });
});
