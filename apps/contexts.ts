import { catalogContext } from '@tally/catalog';
import { customersContext } from '@tally/customers';
import { invoicingContext } from '@tally/invoicing';
import { paymentsContext } from '@tally/payments';
import { subscriptionsContext } from '@tally/subscriptions';
import { composeContexts, type ContextManifest } from '@tally/runtime';
import { taxContext } from '@tally/tax';
import { usageContext } from '@tally/usage';
import { walletsContext } from '@tally/wallets';
import { tenancyContext } from '@tally/tenancy';
import { webhooksContext } from '@tally/webhooks';

/**
 * The bounded contexts of Tally, one line each, registered here only: the API app serves them, the
 * worker app (and the API's worker threads) runs their projections and processes, and the
 * architecture test checks each of them.
 */
export const CONTEXT_MANIFESTS: readonly ContextManifest[] = [tenancyContext, customersContext, catalogContext, taxContext, invoicingContext, paymentsContext, subscriptionsContext, usageContext, walletsContext, webhooksContext];

export const CONTEXTS = composeContexts(CONTEXT_MANIFESTS);
