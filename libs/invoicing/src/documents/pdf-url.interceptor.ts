import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { map, type Observable } from 'rxjs';
import type { Clock } from '@tally/kernel';
import { CLOCK, type RequestContext } from '@tally/cells';
import { contextOf } from '@tally/http';
import type { CreditNoteResource, InvoiceResource } from '../invoice.view';
import { PdfLinks } from './pdf-links';

/**
 * Fills `pdf_url` of every finalised invoice and every credit note a route answers, alone, in a
 * list or on their invoice, with a link signed at answer time: a stored link would expire, so
 * the read models keep none. Drafts have no PDF yet (`null`), as Stripe's `invoice_pdf`.
 */
@Injectable()
export class PdfUrlInterceptor implements NestInterceptor {
  constructor(
    private readonly links: PdfLinks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    const context = contextOf(execution.switchToHttp().getRequest<Request>());
    return next.handle().pipe(map((body: unknown) => (isList(body) ? { ...body, data: body.data.map((item) => this.withLinks(context, item)) } : this.withLinks(context, body))));
  }

  private withLinks(context: RequestContext, body: unknown): unknown {
    if (isObject(body, 'credit_note')) return this.withCreditNoteLink(context, body);
    if (!isObject(body, 'invoice') || body.status === 'draft') return body;
    const now = this.clock.now();
    return { ...body, pdf_url: this.links.sign('invoice', context, body.id, now).url, credit_notes: body.credit_notes.map((note) => this.withCreditNoteLink(context, note, now)) };
  }

  private withCreditNoteLink(context: RequestContext, note: CreditNoteResource, now = this.clock.now()): CreditNoteResource {
    return { ...note, pdf_url: this.links.sign('credit_note', context, note.id, now).url };
  }
}

type Answered = { invoice: InvoiceResource; credit_note: CreditNoteResource };

const isObject = <K extends keyof Answered>(body: unknown, object: K): body is Answered[K] => typeof body === 'object' && body !== null && (body as { object?: unknown }).object === object;
const isList = (body: unknown): body is { object: 'list'; data: unknown[] } => typeof body === 'object' && body !== null && (body as { object?: unknown }).object === 'list' && Array.isArray((body as { data?: unknown }).data);
