import { randomBytes } from 'node:crypto';
import { DomainError } from '@tally/kernel';
import { DerivedKeys, LinkSigner, PublicUrl } from '@tally/cells';
import { PDF_LINKS } from './pdf-links';

const publicUrl = new PublicUrl('https://billing.example.com/tally');
const keys = new DerivedKeys(randomBytes(32));
const signer = LinkSigner.derive(keys, PDF_LINKS.invoice, publicUrl);
const acme = { tenantId: 'ten_ACME', environment: 'sandbox' as const };
const NOW = new Date('2026-05-01T10:00:00.000Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

/** The invoice id and query of a signed link, as the route receives them. */
const parse = (url: string) => {
  const parsed = new URL(url, 'http://tally');
  return { invoiceId: decodeURIComponent(parsed.pathname.split('/').pop()!), query: Object.fromEntries(parsed.searchParams) };
};

const refusal = (act: () => unknown): string | undefined => {
  try {
    act();
    return undefined;
  } catch (error) {
    return error instanceof DomainError ? `${error.kind} ${error.code}` : String(error);
  }
};

describe('signed links to invoice PDFs', () => {
  it('signs a link to the invoice under the public URL that expires five minutes later', () => {
    const link = signer.sign(acme, 'inv_1', NOW);
    expect(link.url).toMatch(/^https:\/\/billing\.example\.com\/tally\/invoice-pdfs\/inv_1\?tenant=ten_ACME&environment=sandbox&expires=1777629900&signature=[A-Za-z0-9_-]{43}$/);
    expect(link.expires_at).toBe('2026-05-01T10:05:00.000Z');
    const { invoiceId, query } = parse(link.url);
    expect(signer.verify(invoiceId, query, later(299))).toEqual({ ...acme, resourceId: 'inv_1', expires: 1777629900 });
  });

  it('refuses a link once it has expired', () => {
    const { invoiceId, query } = parse(signer.sign(acme, 'inv_1', NOW).url);
    expect(refusal(() => signer.verify(invoiceId, query, later(300)))).toBe('forbidden invoice_pdf.link_expired');
  });

  it('refuses a link with any part changed: another invoice, tenant, environment, a later expiry, or the signature', () => {
    const { invoiceId, query } = parse(signer.sign(acme, 'inv_1', NOW).url);
    const flipped = query.signature[0] === 'A' ? `B${query.signature.slice(1)}` : `A${query.signature.slice(1)}`;
    const tampered: [string, Record<string, unknown>][] = [
      ['inv_2', query],
      [invoiceId, { ...query, tenant: 'ten_OTHER' }],
      [invoiceId, { ...query, environment: 'live' }],
      [invoiceId, { ...query, expires: String(Number(query.expires) + 3600) }],
      [invoiceId, { ...query, signature: flipped }],
      [invoiceId, { ...query, signature: query.signature.slice(0, 20) }],
      [invoiceId, { ...query, signature: undefined }],
      [invoiceId, { ...query, signature: [query.signature, query.signature] }],
      [invoiceId, { ...query, expires: '1e10' }],
      [invoiceId, {}],
    ];
    for (const [id, q] of tampered) expect([id, q, refusal(() => signer.verify(id, q, NOW))]).toEqual([id, q, 'forbidden invoice_pdf.invalid_signature']);
  });

  it('refuses a link signed under another master key', () => {
    const { invoiceId, query } = parse(LinkSigner.derive(new DerivedKeys(randomBytes(32)), PDF_LINKS.invoice, publicUrl).sign(acme, 'inv_1', NOW).url);
    expect(refusal(() => signer.verify(invoiceId, query, NOW))).toBe('forbidden invoice_pdf.invalid_signature');
  });
});

describe('signed links to credit note PDFs', () => {
  const creditNotes = LinkSigner.derive(keys, PDF_LINKS.credit_note, publicUrl);

  it('signs a link to the credit note under the public URL that expires five minutes later, as an invoice’s', () => {
    const link = creditNotes.sign(acme, 'cn_1', NOW);
    expect(link.url).toMatch(/^https:\/\/billing\.example\.com\/tally\/credit-note-pdfs\/cn_1\?tenant=ten_ACME&environment=sandbox&expires=1777629900&signature=[A-Za-z0-9_-]{43}$/);
    expect(link.expires_at).toBe('2026-05-01T10:05:00.000Z');
    const { invoiceId: id, query } = parse(link.url);
    expect(creditNotes.verify(id, query, later(299))).toEqual({ ...acme, resourceId: 'cn_1', expires: 1777629900 });
  });

  it('refuses an expired or changed link with the invoice link’s codes, naming the credit note’s route', () => {
    const { invoiceId: id, query } = parse(creditNotes.sign(acme, 'cn_1', NOW).url);
    expect(refusal(() => creditNotes.verify(id, query, later(300)))).toBe('forbidden invoice_pdf.link_expired');
    expect(refusal(() => creditNotes.verify('cn_2', query, NOW))).toBe('forbidden invoice_pdf.invalid_signature');
    expect(PDF_LINKS.credit_note.refusals.invalid.detail).toContain('GET /v1/credit-notes/{id}/pdf');
  });

  it('opens no document of the other kind: an invoice link is no credit note link, nor the other way round', () => {
    const invoiceLink = parse(signer.sign(acme, 'doc_1', NOW).url);
    const creditNoteLink = parse(creditNotes.sign(acme, 'doc_1', NOW).url);
    expect(refusal(() => creditNotes.verify('doc_1', invoiceLink.query, NOW))).toBe('forbidden invoice_pdf.invalid_signature');
    expect(refusal(() => signer.verify('doc_1', creditNoteLink.query, NOW))).toBe('forbidden invoice_pdf.invalid_signature');
  });
});
