import { Injectable } from '@nestjs/common';
import { CellRegistry, LinkSigner, linkContext, PublicUrl, type LinkClaims, type LinkPurpose, type RequestContext, type SignedLink } from '@tally/cells';
import { TENANTS, type TenantEntry } from '@tally/http';

/** How long a signed PDF link works. */
export const PDF_LINK_LIFETIME_SECONDS = 300;

/** The documents Tally prints: each has a PDF behind a signed link. */
export type PdfDocument = 'invoice' | 'credit_note';

/** Where a signed link serves the PDF: outside `/v1`, so that it needs no API key (as health and the reference). */
export const INVOICE_PDF_PATH = '/invoice-pdfs';
export const CREDIT_NOTE_PDF_PATH = '/credit-note-pdfs';

/**
 * The short-lived links to one kind of document's PDF, signed under a key of their own (HKDF info
 * `<document> pdf links`) and refused with the same codes whatever the document.
 */
function pdfLinks(document: { name: string; keyInfo: string; label: string; path: string; route: string }): LinkPurpose {
  const askAgain = `ask for a new one with GET /v1/${document.route}/{id}/pdf`;
  return {
    keyInfo: document.keyInfo,
    label: document.label,
    path: document.path,
    lifetimeSeconds: PDF_LINK_LIFETIME_SECONDS,
    refusals: {
      invalid: { code: 'invoice_pdf.invalid_signature', detail: `This link to ${document.name} PDF is not one Tally signed, or was changed; ${askAgain}` },
      expired: { code: 'invoice_pdf.link_expired', detail: (at) => `This link to ${document.name} PDF expired at ${at}; ${askAgain}` },
    },
  };
}

export const PDF_LINKS: Record<PdfDocument, LinkPurpose> = {
  invoice: pdfLinks({ name: 'an invoice', keyInfo: 'invoice pdf links', label: 'tally.invoice_pdf.v1', path: INVOICE_PDF_PATH, route: 'invoices' }),
  credit_note: pdfLinks({ name: 'a credit note', keyInfo: 'credit note pdf links', label: 'tally.credit_note_pdf.v1', path: CREDIT_NOTE_PDF_PATH, route: 'credit-notes' }),
};

/** Who opened a genuine link: the link's tenant and environment, and the tenant's name to print as the seller. */
export interface OpenedPdfLink {
  context: RequestContext;
  seller: string;
}

/** The PDF link signers of this installation, one per document, each with a key of its own derived from the master key. */
@Injectable()
export class PdfLinks {
  private readonly signers = new Map<PdfDocument, LinkSigner>();

  constructor(
    private readonly cells: CellRegistry,
    private readonly publicUrl: PublicUrl,
  ) {}

  sign(document: PdfDocument, context: Pick<RequestContext, 'tenantId' | 'environment'>, id: string, now: Date): SignedLink {
    return this.signer(document).sign(context, id, now);
  }

  verify(document: PdfDocument, id: string, query: Record<string, unknown>, now: Date): LinkClaims {
    return this.signer(document).verify(id, query, now);
  }

  /** What a link's request acts as, once its signature and expiry hold; undefined when its tenant is gone. */
  async open(document: PdfDocument, id: string, query: Record<string, unknown>, now: Date): Promise<OpenedPdfLink | undefined> {
    const claims = this.verify(document, id, query, now);
    const tenant = await this.cells.directory.get<TenantEntry>(TENANTS, claims.tenantId);
    return tenant && { context: linkContext(claims, tenant.region, `${document}_pdf_link`), seller: tenant.name };
  }

  private signer(document: PdfDocument): LinkSigner {
    let signer = this.signers.get(document);
    if (!signer) {
      signer = LinkSigner.derive(this.cells.keys, PDF_LINKS[document], this.publicUrl);
      this.signers.set(document, signer);
    }
    return signer;
  }
}
