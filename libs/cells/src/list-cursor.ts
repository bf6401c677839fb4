import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@tally/kernel';
import type { After, SortSpec } from '@tally/readstore';

const MAC_BYTES = 16;

interface CursorPayload {
  s: string;
  v: After['value'];
  id: string;
}

/**
 * Cursors are opaque to clients but must not be forgeable: a cursor is the base64url of its
 * payload (sort, last sort value, last id) and an HMAC of that payload with a key of the cell
 * that issued it. Anything that does not verify, parse, or match the sort is one error.
 */
export class ListCursors {
  private constructor(private readonly key: Buffer) {}

  /** One key per cell (or the directory), derived from the master key so that cursors outlive restarts. */
  static derive(masterKey: Buffer, scope: string): ListCursors {
    return new ListCursors(Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `list cursors:${scope}`, 32)));
  }

  encode(sort: SortSpec, after: After): string {
    const payload: CursorPayload = { s: sortName(sort), v: after.value, id: after.id };
    const body = Buffer.from(JSON.stringify(payload));
    return `${body.toString('base64url')}.${this.mac(body).toString('base64url')}`;
  }

  decode(raw: unknown, sort: SortSpec): After {
    const payload = typeof raw === 'string' ? this.verified(raw) : undefined;
    if (!payload) throw cursorInvalid('The cursor is not one this API issued; use next_cursor of a previous page as it was sent');
    if (payload.s !== sortName(sort)) {
      throw cursorInvalid(`The cursor belongs to sort ${payload.s}; start again without a cursor to sort by ${sortName(sort)}`);
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

function isCursorPayload(value: unknown): value is CursorPayload {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { s, v, id } = value as Record<string, unknown>;
  const scalar = v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
  return typeof s === 'string' && typeof id === 'string' && scalar;
}

const cursorInvalid = (message: string): DomainError =>
  DomainError.invalid('pagination.cursor_invalid', message, [{ field: 'cursor', code: 'pagination.cursor_invalid', message }]);
