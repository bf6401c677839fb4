import type { CustomerDefaultPaymentMethodChanged } from '@tally/customers';
import { asEventOf, type Projection, type ProjectionWriter } from '@tally/runtime';
import type { Doc } from '@tally/readstore';
import { paymentMethodResource } from './payment-method.resource';

const resources = paymentMethodResource.projection;

/**
 * The payment methods read model and their public events, plus each method's `is_default`, which
 * follows the customer's default: the customer's event names both the new default and the old one.
 */
export const paymentMethodProjection: Projection = {
  ...resources,
  streamPrefixes: [...resources.streamPrefixes, 'customer-'],
  async handle(event, writer) {
    if (!event.stream.startsWith('customer-')) return resources.handle(event, writer);
    if (event.type !== 'CustomerDefaultPaymentMethodChanged') return;
    const { payment_method_id, previous_payment_method_id } = asEventOf<CustomerDefaultPaymentMethodChanged>(event).data;
    await flagDefault(writer, previous_payment_method_id, false);
    await flagDefault(writer, payment_method_id, true);
  },
};

async function flagDefault(writer: ProjectionWriter, id: string | null, isDefault: boolean): Promise<void> {
  const method = id === null ? undefined : await writer.get<Doc>(paymentMethodResource.collection, id);
  if (method && method.is_default !== isDefault) writer.upsert(paymentMethodResource.collection, { ...method, is_default: isDefault });
}
