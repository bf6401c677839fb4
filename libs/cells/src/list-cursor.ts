import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@tally/kernel';
import type { After, Condition, SortSpec } from '@tally/readstore';

const MAC_BYTES = 16;
/** Enough of a SHA-256 that two lists never share a binding by chance; the MAC, not this, stops forgery. */
const BINDING_CHARS = 16;

interface CursorPayload {
  s: string;
  /** The list and filters the cursor was issued for (see bindingOf). */
  b: string;
  v: After['value'];
  id: string;
}

/** What a page was read with: a cursor is valid only for the same sort and filters. */
export interface PageQuery {
  sort: SortSpec;
  where?: readonly Condition[];
}

/** The cursors of one list: encode after a page, decode before the next. */
export interface ListPageCursors {
  encode(query: PageQuery, after: After): string;
  decode(raw: unknown, query: PageQuery): After;
}

/**
 * Cursors are opaque to clients but must not be forgeable: a cursor is the base64url of its
 * payload (sort, binding, last sort value, last id) and an HMAC of that payload with a key of
 * the cell that issued it. The binding digests the list (the route's collection and the ids in
 * its path) and its filters, so a cursor of one list is refused by another, as it is under
 * another sort. Anything that does not verify, parse, or match is one error.
 */
export class ListCursors {
  private constructor(private readonly key: Buffer) {}

  /** One key per cell (or the directory), derived from the master key so that cursors outlive restarts. */
  static derive(masterKey: Buffer, scope: string): ListCursors {
    return new ListCursors(Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `list cursors:${scope}`, 32)));
  }

  /** The cursors of `list`: a name for the route's collection, with the ids its path holds (`tax_ids:cus_…`). */
  forList(list: string): ListPageCursors {
    return { encode: (query, after) => this.encode(list, query, after), decode: (raw, query) => this.decode(list, raw, query) };
  }

  private encode(list: string, query: PageQuery, after: After): string {
    const payload: CursorPayload = { s: sortName(query.sort), b: bindingOf(list, query.where), v: after.value, id: after.id };
    const body = Buffer.from(JSON.stringify(payload));
    return `${body.toString('base64url')}.${this.mac(body).toString('base64url')}`;
  }

  private decode(list: string, raw: unknown, query: PageQuery): After {
    const payload = typeof raw === 'string' ? this.verified(raw) : undefined;
    if (!payload) throw cursorInvalid('The cursor is not one this API issued; use next_cursor of a previous page as it was sent');
    if (payload.s !== sortName(query.sort)) {
      throw cursorInvalid(`The cursor belongs to sort ${payload.s}; start again without a cursor to sort by ${sortName(query.sort)}`);
    }
    if (payload.b !== bindingOf(list, query.where)) {
      throw cursorInvalid('The cursor belongs to another list, or to other filters; send it with the route and filters of the page that issued it, or start again without a cursor');
    }
    return { value: payload.v, id: payload.id };
  }

  private verified(raw: string): CursorPayload | undefined {
    const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(raw);
    if (!match) return undefined;
    const body = Buffer.from(match[1], 'base64url');
    const mac = Buffer.from(match[2], 'base64url');
    if (mac.length !== MAC_BYTES || !timingSafeEqual(mac, this.mac(body))) return undefined;
    try {
      const payload: unknown = JSON.parse(body.toString('utf8'));
      return isCursorPayload(payload) ? payload : undefined;
    } catch {
      return undefined;
    }
  }

  private mac(body: Buffer): Buffer {
    return createHmac('sha256', this.key).update(body).digest().subarray(0, MAC_BYTES);
  }
}

const sortName = (sort: SortSpec): string => `${sort.field}:${sort.direction}`;

/** A digest of the list and its filters, the same whatever order the filters, or an `in` filter's values, were sent in. */
function bindingOf(list: string, where: readonly Condition[] = []): string {
  const conditions = where.map(({ field, op, value }) => JSON.stringify([field, op, Array.isArray(value) ? [...value].map(String).sort() : value])).sort();
  return createHash('sha256').update(JSON.stringify([list, conditions])).digest('base64url').slice(0, BINDING_CHARS);
}

function isCursorPayload(value: unknown): value is CursorPayload {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { s, b, v, id } = value as Record<string, unknown>;
  const scalar = v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
  return typeof s === 'string' && typeof b === 'string' && typeof id === 'string' && scalar;
}

const cursorInvalid = (message: string): DomainError =>
  DomainError.invalid('pagination.cursor_invalid', message, [{ field: 'cursor', code: 'pagination.cursor_invalid', message }]);
