import type { FieldError } from '@tally/kernel';

const MAX_URL_LENGTH = 2048;
const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * What is wrong with an endpoint's URL, if anything: live endpoints take `https` only; sandbox ones
 * also `http` to a loopback host, so that a developer can receive on their own machine. Where the
 * host resolves to is checked at every delivery, not here: DNS answers change.
 */
export function endpointUrlProblem(url: string, livemode: boolean): FieldError | undefined {
  const problem = (message: string): FieldError => ({ field: 'url', code: 'webhook_endpoint.invalid_url', message });
  if (url.length > MAX_URL_LENGTH) return problem(`at most ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return problem('an absolute https URL');
  }
  if (parsed.username || parsed.password) return problem('a URL without credentials');
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol !== 'http:') return problem('an https URL');
  if (livemode) return problem('an https URL (live endpoints take https only)');
  return LOOPBACK_HOSTS.test(parsed.hostname) ? undefined : problem('an https URL, or http to a loopback host (localhost, 127.0.0.1, [::1]) in sandbox');
}
