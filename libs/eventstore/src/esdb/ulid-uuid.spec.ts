import { ManualClock, UlidGenerator } from '@tally/kernel';
import { ulidToUuid, uuidToUlid } from './ulid-uuid';

describe('ULID ↔ UUID', () => {
  it('maps the ULID bits onto the UUID hex digits', () => {
    expect(ulidToUuid('00000000000000000000000000')).toBe('00000000-0000-0000-0000-000000000000');
    expect(ulidToUuid('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')).toBe('ffffffff-ffff-ffff-ffff-ffffffffffff');
    // 0x01 in the lowest 5 bits, 0x20 = 1 << 5 in the next character.
    expect(ulidToUuid('00000000000000000000000011')).toBe('00000000-0000-0000-0000-000000000021');
    // The ULID spec's example.
    expect(ulidToUuid('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toBe('01563e3a-b5d3-d676-4c61-efb99302bd5b');
  });

  it('round-trips generated ULIDs and keeps their order', () => {
    const clock = new ManualClock('2026-05-06T07:08:09.010Z');
    const ids = new UlidGenerator(clock);
    const ulids = Array.from({ length: 500 }, (_, i) => {
      if (i % 7 === 0) clock.advance(3);
      return ids.ulid();
    });
    const uuids = ulids.map(ulidToUuid);
    expect(uuids.map(uuidToUlid)).toEqual(ulids);
    expect([...uuids].sort()).toEqual(uuids);
  });

  it('round-trips arbitrary UUIDs, whatever their version bits', () => {
    for (const uuid of ['8f14e45f-ceea-467a-9575-b1d7e0f2a9c3', 'ffffffff-0000-ffff-0000-ffffffffffff', '00000000-0000-0000-0000-000000000001']) {
      expect(ulidToUuid(uuidToUlid(uuid))).toBe(uuid);
    }
    expect(uuidToUlid('8F14E45F-CEEA-467A-9575-B1D7E0F2A9C3')).toBe(uuidToUlid('8f14e45f-ceea-467a-9575-b1d7e0f2a9c3'));
  });

  it('rejects what is not a canonical ULID or a UUID', () => {
    expect(() => ulidToUuid('8ZZZZZZZZZZZZZZZZZZZZZZZZZ')).toThrow(TypeError); // above 128 bits
    expect(() => ulidToUuid('01arz3ndektsv4rrffq69g5fav')).toThrow(TypeError); // lowercase would not round-trip
    expect(() => ulidToUuid('01ARZ3NDEKTSV4RRFFQ69G5FAI')).toThrow(TypeError); // I is not Crockford
    expect(() => ulidToUuid('01ARZ3NDEKTSV4RRFFQ69G5FA')).toThrow(TypeError);
    expect(() => uuidToUlid('not-a-uuid')).toThrow(TypeError);
  });
});
