import { isBefore, type ApiVersion } from './api-versions';

/** The webhook signature header an endpoint of `version` expects: it lost its `X-` prefix in 2025-04-01. */
export const signatureHeaderName = (version: ApiVersion): string => (isBefore(version, '2025-04-01') ? 'X-Service-Signature' : 'Service-Signature');
