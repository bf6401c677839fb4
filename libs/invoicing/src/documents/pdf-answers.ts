import { applyDecorators, type Type } from '@nestjs/common';
import { ApiFoundResponse, ApiOkResponse, ApiQuery } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { SignedLink } from '@tally/cells';
import { ApiProblemResponses } from '@tally/http';

/** What `GET /v1/…/{id}/pdf` answers by `Accept`: the PDF (by its link) first, so that a wildcard and no Accept get it. */
const PDF_LINK_MEDIA_TYPES = ['application/pdf', 'application/json'];

/**
 * A document's PDF as the authenticated route answers it: a redirect (302) to its signed link, or
 * the link as JSON to a client whose `Accept` prefers `application/json` to `application/pdf`.
 */
export function answerPdfLink(request: Request, response: Response, link: SignedLink & { object: string }): void {
  // The answer depends on Accept, and the link is a credential for five minutes: no cache keeps either.
  response.set({ Vary: 'Accept', 'Cache-Control': 'private, no-store' });
  if (request.accepts(PDF_LINK_MEDIA_TYPES) === 'application/json') response.status(200).json(link);
  else response.status(302).location(link.url).end();
}

/** The two answers of `answerPdfLink`: the redirect, and the link as `type`. */
export const ApiPdfLinkResponses = (type: Type<unknown>) =>
  applyDecorators(
    ApiFoundResponse({
      description: 'The signed link to the PDF, in `Location`',
      headers: { Location: { description: 'The absolute signed link, valid for five minutes', schema: { type: 'string', format: 'uri' } } },
    }),
    ApiOkResponse({ type, description: 'The signed link, when `Accept` prefers `application/json`' }),
  );

/** A document's PDF as its signed link serves it: inline, named by its number, kept by no cache. */
export function sendPdf(response: Response, { pdf, filename }: { pdf: Buffer; filename: string }): void {
  response
    .status(200)
    .set({
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    })
    .send(pdf);
}

const LINK_PARAMETER = { required: true, description: 'As the signed link has it' } as const;

/** The route a signed link to a document's PDF opens: the link's query, the PDF, and its refusals (the same codes whatever the document). */
export const ApiSignedPdf = (document: { name: string; notFound: string }) =>
  applyDecorators(
    ApiQuery({ name: 'tenant', ...LINK_PARAMETER, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,100}$' } }),
    ApiQuery({ name: 'environment', ...LINK_PARAMETER, schema: { type: 'string', enum: ['live', 'sandbox'] } }),
    ApiQuery({ name: 'expires', ...LINK_PARAMETER, schema: { type: 'string', pattern: '^[1-9][0-9]{0,11}$' } }),
    ApiQuery({ name: 'signature', ...LINK_PARAMETER, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' } }),
    ApiOkResponse({ description: `The ${document.name} as a PDF`, content: { 'application/pdf': {} } }),
    ApiProblemResponses({ 403: ['invoice_pdf.invalid_signature', 'invoice_pdf.link_expired'], 404: [document.notFound] }),
  );
