import { signatureHeaderName } from './signature-header';

describe('signatureHeaderName', () => {
  it.each([
    ['2024-10-01', 'X-Service-Signature'],
    ['2025-04-01', 'Service-Signature'],
    ['2025-10-01', 'Service-Signature'],
    ['2026-04-01', 'Service-Signature'],
  ] as const)('names the header of %s %s', (version, header) => expect(signatureHeaderName(version)).toBe(header));
});
