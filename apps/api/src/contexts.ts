import { catalogContext } from '@tally/catalog';
import { customersContext } from '@tally/customers';
import { invoicingContext } from '@tally/invoicing';
import { paymentsContext } from '@tally/payments';
import { subscriptionsContext } from '@tally/subscriptions';
import { composeContexts } from '@tally/runtime';
import { taxContext } from '@tally/tax';
import { usageContext } from '@tally/usage';
import { tenancyContext } from '@tally/tenancy';
import { webhooksContext } from '@tally/webhooks';

/** The bounded contexts this app serves: one line each. */
export const CONTEXTS = composeContexts([tenancyContext, customersContext, catalogContext, taxContext, invoicingContext, paymentsContext, subscriptionsContext, usageContext, webhooksContext]);
