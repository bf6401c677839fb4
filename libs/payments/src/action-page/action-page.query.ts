import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Clock } from '@tally/kernel';
import { CellRegistry, CLOCK, linkContext, PublicUrl, type RequestContext } from '@tally/cells';
import { TENANTS, type TenantEntry } from '@tally/http';
import { CommandRuntime } from '@tally/runtime';
import { paymentNotFound } from '../domain/payment.decider';
import { paymentAggregate } from '../payment.aggregate';
import { PAYMENT_ACTION_PATH, PaymentActionLinks } from '../payment-action-links';
import type { PaymentResource } from '../payment.view';
import { actionPageHtml, actionPagePolicy, afterAnswer } from './action-page.html';

interface ActionPage {
  html: string;
  /** The page's Content-Security-Policy. */
  policy: string;
  payment: PaymentResource;
  context: RequestContext;
  /** Where the customer goes once they answered (see afterAnswer). */
  after: string;
}

/** The payment a signed action link names, as its page shows it. `query` is the link's query string, carried onto the page's forms. */
export class ActionPageQuery extends Query<ActionPage> {
  constructor(
    readonly paymentId: string,
    readonly link: Record<string, unknown>,
    readonly query: string,
  ) {
    super();
  }
}

@QueryHandler(ActionPageQuery)
export class ActionPageHandler implements IQueryHandler<ActionPageQuery, ActionPage> {
  constructor(
    private readonly links: PaymentActionLinks,
    private readonly cells: CellRegistry,
    private readonly runtime: CommandRuntime,
    private readonly publicUrl: PublicUrl,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Read from the payment's stream, not the read model, so the page shows an answer the moment it is recorded. */
  async execute({ paymentId, link, query }: ActionPageQuery): Promise<ActionPage> {
    const claims = this.links.verify(paymentId, link, this.clock.now());
    const tenant = await this.cells.directory.get<TenantEntry>(TENANTS, claims.tenantId);
    if (!tenant) throw paymentNotFound(paymentId);
    const context = linkContext(claims, tenant.region, 'payment_action_page');
    const { resource } = await this.runtime.load(this.runtime.cellOf(context), paymentAggregate, paymentId, context);
    if (!resource) throw paymentNotFound(paymentId);
    const page = { url: this.publicUrl.of(`${PAYMENT_ACTION_PATH}/${encodeURIComponent(paymentId)}`), query };
    return { html: actionPageHtml(tenant.name, resource, page), policy: actionPagePolicy(resource), payment: resource, context, after: afterAnswer(resource, page) };
  }
}
