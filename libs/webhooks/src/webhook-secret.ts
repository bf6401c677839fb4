import { randomBytes } from 'node:crypto';
import type { WebhookEndpointResource } from './webhook-endpoint.view';

/** An endpoint as its creation or a rotation answers it: with the new secret, which no other answer shows. */
export type WebhookEndpointWithSecret = WebhookEndpointResource & { secret: string };

/** A signing secret as Stripe shows one: `whsec_` and 32 characters of 192 random bits. */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;
