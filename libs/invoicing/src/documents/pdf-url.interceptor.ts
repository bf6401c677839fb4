import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { map, type Observable } from 'rxjs';
import type { Clock } from '@tally/kernel';
import { CLOCK, type RequestContext } from '@tally/cells';
import { contextOf } from '@tally/http';
import type { InvoiceResource } from '../invoice.view';
import { InvoicePdfLinks } from './pdf-links';

/**
 * Fills `pdf_url` of every finalised invoice a route answers, alone or in a list, with a link
 * signed at answer time: a stored link would expire, so the read model keeps none. Drafts have
 * no PDF yet (`null`), as Stripe's `invoice_pdf`.
 */
@Injectable()
export class InvoicePdfUrlInterceptor implements NestInterceptor {
  constructor(
    private readonly links: InvoicePdfLinks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    const context = contextOf(execution.switchToHttp().getRequest<Request>());
    return next.handle().pipe(map((body: unknown) => this.withLinks(context, body)));
  }

  private withLinks(context: RequestContext, body: unknown): unknown {
    if (isInvoice(body)) return this.withLink(context, body);
    if (isList(body)) return { ...body, data: body.data.map((item) => (isInvoice(item) ? this.withLink(context, item) : item)) };
    return body;
  }

  private withLink(context: RequestContext, invoice: InvoiceResource): InvoiceResource {
    return invoice.status === 'draft' ? invoice : { ...invoice, pdf_url: this.links.sign(context, invoice.id, this.clock.now()).url };
  }
}

const isInvoice = (body: unknown): body is InvoiceResource => typeof body === 'object' && body !== null && (body as { object?: unknown }).object === 'invoice';
const isList = (body: unknown): body is { object: 'list'; data: unknown[] } => typeof body === 'object' && body !== null && (body as { object?: unknown }).object === 'list' && Array.isArray((body as { data?: unknown }).data);
