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
