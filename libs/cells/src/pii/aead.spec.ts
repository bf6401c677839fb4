import { randomBytes } from 'node:crypto';
import { open, seal } from './aead';

describe('AES-256-GCM sealing', () => {
  const key = randomBytes(32);
  const aad = Buffer.from('subject', 'utf8');
  const plaintext = Buffer.from('{"email":"ada@example.com"}', 'utf8');

  it('opens what it sealed, and nothing sealed under other associated data', () => {
    const sealed = seal(key, aad, plaintext);
    expect(open(key, aad, sealed)).toEqual(plaintext);
    expect(() => open(key, Buffer.from('another subject', 'utf8'), sealed)).toThrow();
  });

  it('never hands out an IV twice, across many draws from the random source', () => {
    const ivs = new Set(Array.from({ length: 2_000 }, () => seal(key, aad, plaintext).iv.toString('hex')));
    expect(ivs.size).toBe(2_000);
  });

  it('leaves an IV it handed out unchanged by later draws', () => {
    const first = seal(key, aad, plaintext);
    const ivAtSealing = Buffer.from(first.iv);
    for (let i = 0; i < 2_000; i++) seal(key, aad, plaintext);
    expect(first.iv).toEqual(ivAtSealing);
    expect(open(key, aad, first)).toEqual(plaintext);
  });
});
