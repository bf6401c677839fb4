import { DomainError } from '@tally/kernel';

/** ETags carry the aggregate's stream revision: `W/"7"`. */
export const etagOf = (revision: number): string => `W/"${revision}"`;

/** The revision named by an `If-Match` header, or undefined when there is none. */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*(?:W\/)?"(-?\d+)"\s*$/.exec(header);
  if (!match) throw DomainError.invalid('request.invalid_if_match', 'If-Match takes an ETag from a previous response, e.g. W/"3"');
  return Number(match[1]);
}

/** Sets the `ETag` of a command's or query's answer and hands the answer on. */
export function withRevision<T extends { revision: number }>(response: { setHeader(name: string, value: string): unknown }, written: T): T {
  response.setHeader('ETag', etagOf(written.revision));
  return written;
}
