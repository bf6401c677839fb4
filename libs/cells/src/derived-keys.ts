import { hkdfSync } from 'node:crypto';

/**
 * Keys derived from the installation's master key, one per purpose (HKDF-SHA-256 with the
 * purpose as its info), so no key ever serves two purposes and the master key itself stays here.
 */
export class DerivedKeys {
  constructor(private readonly masterKey: Buffer) {}

  derive(purpose: string, length = 32): Buffer {
    return Buffer.from(hkdfSync('sha256', this.masterKey, Buffer.alloc(0), purpose, length));
  }
}
