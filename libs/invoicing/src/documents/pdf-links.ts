import { Injectable } from '@nestjs/common';
import { CellRegistry, LinkSigner, PublicUrl, type LinkClaims, type LinkPurpose, type RequestContext, type SignedLink } from '@tally/cells';

/** How long a signed PDF link works. */
export const PDF_LINK_LIFETIME_SECONDS = 300;

/** Where a signed link serves the PDF: outside `/v1`, so that it needs no API key (as health and the reference). */
export const INVOICE_PDF_PATH = '/invoice-pdfs';

/** The short-lived links to invoice PDFs, signed under a key of their own (HKDF info `invoice pdf links`). */
export const PDF_LINKS: LinkPurpose = {
  keyInfo: 'invoice pdf links',
  label: 'tally.invoice_pdf.v1',
  path: INVOICE_PDF_PATH,
  lifetimeSeconds: PDF_LINK_LIFETIME_SECONDS,
  refusals: {
    invalid: { code: 'invoice_pdf.invalid_signature', detail: 'This link to an invoice PDF is not one Tally signed, or was changed; ask for a new one with GET /v1/invoices/{id}/pdf' },
    expired: { code: 'invoice_pdf.link_expired', detail: (at) => `This link to an invoice PDF expired at ${at}; ask for a new one with GET /v1/invoices/{id}/pdf` },
  },
};

/** The PDF link signer of this installation, with a key of its own derived from the master key. */
@Injectable()
export class InvoicePdfLinks {
  private signer: LinkSigner | undefined;

  constructor(
    private readonly cells: CellRegistry,
    private readonly publicUrl: PublicUrl,
  ) {}

  sign(context: Pick<RequestContext, 'tenantId' | 'environment'>, invoiceId: string, now: Date): SignedLink {
    return this.keyed().sign(context, invoiceId, now);
  }

  verify(invoiceId: string, query: Record<string, unknown>, now: Date): LinkClaims {
    return this.keyed().verify(invoiceId, query, now);
  }

  private keyed(): LinkSigner {
    this.signer ??= LinkSigner.derive(this.cells.keys, PDF_LINKS, this.publicUrl);
    return this.signer;
  }
}
