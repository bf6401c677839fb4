import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError } from '@tally/kernel';
import { CellRegistry, type DerivedKeys, type Environment, type RequestContext } from '@tally/cells';

/** How long a signed PDF link works. */
export const PDF_LINK_LIFETIME_SECONDS = 300;

/** Where a signed link serves the PDF: outside `/v1`, so that it needs no API key (as health and the reference). */
export const INVOICE_PDF_PATH = '/invoice-pdfs';

const SIGNATURE_BYTES = 32;
const ID = /^[A-Za-z0-9_-]{1,100}$/;
const ENVIRONMENTS: readonly Environment[] = ['live', 'sandbox'];

/** What a signed link grants: the PDF of one invoice of one tenant's environment, until `expires` (Unix seconds). */
export interface PdfLinkClaims {
  tenantId: string;
  environment: Environment;
  invoiceId: string;
  expires: number;
}

export interface SignedPdfLink {
  /** Root-relative: resolve it against the API's base address. */
  url: string;
  expires_at: string;
}

/**
 * Signs and checks the short-lived links to invoice PDFs:
 * `/invoice-pdfs/{invoice_id}?tenant=…&environment=…&expires=…&signature=…`, the signature being
 * the base64url of HMAC-SHA-256, under a key of its own derived from the master key (HKDF, info
 * `invoice pdf links`), of `tally.invoice_pdf.v1`, tenant, environment, invoice id and expiry
 * joined by newlines. The secrets travel in the query string, which the access log leaves out.
 */
export class PdfLinkSigner {
  private constructor(private readonly key: Buffer) {}

  static derive(keys: DerivedKeys): PdfLinkSigner {
    return new PdfLinkSigner(keys.derive('invoice pdf links'));
  }

  sign(context: Pick<RequestContext, 'tenantId' | 'environment'>, invoiceId: string, now: Date): SignedPdfLink {
    const expires = Math.floor(now.getTime() / 1000) + PDF_LINK_LIFETIME_SECONDS;
    const claims: PdfLinkClaims = { tenantId: context.tenantId, environment: context.environment, invoiceId, expires };
    const query = new URLSearchParams({ tenant: claims.tenantId, environment: claims.environment, expires: String(expires), signature: this.mac(claims).toString('base64url') });
    return { url: `${INVOICE_PDF_PATH}/${encodeURIComponent(invoiceId)}?${query.toString()}`, expires_at: new Date(expires * 1000).toISOString() };
  }

  /**
   * The claims of a link whose signature holds and that has not expired at `now`. The signature is
   * checked first, in constant time, so a forged link learns nothing of expiry.
   */
  verify(invoiceId: string, query: Record<string, unknown>, now: Date): PdfLinkClaims {
    const { tenant, environment, expires, signature } = query;
    const claims = parseClaims(invoiceId, tenant, environment, expires);
    const given = typeof signature === 'string' && /^[A-Za-z0-9_-]{43}$/.test(signature) ? Buffer.from(signature, 'base64url') : undefined;
    const expected = claims && this.mac(claims);
    if (!claims || !given || given.length !== SIGNATURE_BYTES || !timingSafeEqual(given, expected!)) {
      throw new DomainError('invoice_pdf.invalid_signature', 'forbidden', 'This link to an invoice PDF is not one Tally signed, or was changed; ask for a new one with GET /v1/invoices/{id}/pdf');
    }
    if (now.getTime() >= claims.expires * 1000) {
      throw new DomainError('invoice_pdf.link_expired', 'forbidden', `This link to an invoice PDF expired at ${new Date(claims.expires * 1000).toISOString()}; ask for a new one with GET /v1/invoices/{id}/pdf`);
    }
    return claims;
  }

  private mac(claims: PdfLinkClaims): Buffer {
    const message = ['tally.invoice_pdf.v1', claims.tenantId, claims.environment, claims.invoiceId, String(claims.expires)].join('\n');
    return createHmac('sha256', this.key).update(message).digest();
  }
}

function parseClaims(invoiceId: string, tenant: unknown, environment: unknown, expires: unknown): PdfLinkClaims | undefined {
  if (!ID.test(invoiceId) || typeof tenant !== 'string' || !ID.test(tenant)) return undefined;
  if (typeof environment !== 'string' || !ENVIRONMENTS.includes(environment as Environment)) return undefined;
  if (typeof expires !== 'string' || !/^[1-9][0-9]{0,11}$/.test(expires)) return undefined;
  return { tenantId: tenant, environment: environment as Environment, invoiceId, expires: Number(expires) };
}

/** The PDF link signer of this installation, with a key of its own derived from the master key. */
@Injectable()
export class InvoicePdfLinks {
  private signer: PdfLinkSigner | undefined;

  constructor(private readonly cells: CellRegistry) {}

  sign(context: Pick<RequestContext, 'tenantId' | 'environment'>, invoiceId: string, now: Date): SignedPdfLink {
    return this.keyed().sign(context, invoiceId, now);
  }

  verify(invoiceId: string, query: Record<string, unknown>, now: Date): PdfLinkClaims {
    return this.keyed().verify(invoiceId, query, now);
  }

  private keyed(): PdfLinkSigner {
    this.signer ??= PdfLinkSigner.derive(this.cells.keys);
    return this.signer;
  }
}
