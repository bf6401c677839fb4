/**
 * `text` as an absolute `http` or `https` URL without credentials (`user:pass@`), or undefined when
 * it is not one: the URLs Tally sends a customer's browser to, and its own public address.
 */
export function absoluteHttpUrl(text: string): URL | undefined {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  return url.username || url.password ? undefined : url;
}
