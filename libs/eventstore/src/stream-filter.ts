import type { SubscriptionFilter } from './event-store.port';

/** The prefixes a filter restricts to, or undefined when it lets every stream through. */
export function streamPrefixesOf(filter: SubscriptionFilter | undefined): readonly string[] | undefined {
  const prefixes = filter?.streamPrefixes;
  return prefixes && prefixes.length > 0 ? prefixes : undefined;
}

export function matchesStreamPrefixes(stream: string, prefixes: readonly string[] | undefined): boolean {
  return prefixes === undefined || prefixes.some((prefix) => stream.startsWith(prefix));
}
