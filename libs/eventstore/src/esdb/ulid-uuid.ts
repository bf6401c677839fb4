/**
 * Our event ids are ULIDs; EventStoreDB wants UUIDs. Both are 128 bits, so the conversion is a
 * bijection: the ULID's bits written as a UUID's 32 hex digits, and back.
 */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ULID_PATTERN = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function ulidToUuid(ulid: string): string {
  if (!ULID_PATTERN.test(ulid)) throw new TypeError(`Not a canonical ULID: ${ulid}`);
  let bits = 0n;
  for (const char of ulid) bits = (bits << 5n) | BigInt(CROCKFORD.indexOf(char));
  const hex = bits.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function uuidToUlid(uuid: string): string {
  const lower = uuid.toLowerCase();
  if (!UUID_PATTERN.test(lower)) throw new TypeError(`Not a UUID: ${uuid}`);
  let bits = BigInt(`0x${lower.replace(/-/g, '')}`);
  let ulid = '';
  for (let i = 0; i < 26; i++) {
    ulid = CROCKFORD[Number(bits & 31n)] + ulid;
    bits >>= 5n;
  }
  return ulid;
}
