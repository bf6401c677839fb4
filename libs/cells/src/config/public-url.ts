import { absoluteHttpUrl } from '@tally/kernel';

/**
 * Where customers and API clients reach Tally (`TALLY_PUBLIC_URL`): every URL Tally hands out
 * (signed links, the hosted action page, redirects) starts with it. A path is kept as a prefix,
 * for a Tally that a proxy serves under one.
 */
export class PublicUrl {
  /** `base` as `parsePublicUrl` answers it: no trailing slash. */
  constructor(readonly base: string) {}

  /** The absolute URL of a root-relative `path` (`/invoice-pdfs/…?…`). */
  of(path: string): string {
    return `${this.base}${path}`;
  }
}

/**
 * The public base URL set in `TALLY_PUBLIC_URL`: an absolute http(s) URL without credentials, query
 * or fragment, written as the URL standard writes it, less a trailing slash. Anything else stops
 * the start, naming the variable.
 */
export function parsePublicUrl(raw: string): string {
  const url = absoluteHttpUrl(raw);
  // The serialiser escapes `?` and `#` in a path, so either one in `href` starts a query or a fragment, empty ones included.
  if (!url || /[?#]/.test(url.href)) {
    throw new Error(`TALLY_PUBLIC_URL is the absolute http(s) address customers reach Tally at, without credentials, query or fragment (such as https://billing.example.com), not ${JSON.stringify(raw)}`);
  }
  return url.href.replace(/\/+$/, '');
}
