import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ScopedReads } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { setupIntentNotFound } from '../domain/setup-intent.decider';
import { setupIntentView, type SetupIntentResource } from './setup-intent.view';

export class GetSetupIntentQuery extends Query<SetupIntentResource> {
  constructor(
    readonly context: RequestContext,
    readonly setupIntentId: string,
  ) {
    super();
  }
}

@QueryHandler(GetSetupIntentQuery)
export class GetSetupIntentHandler implements IQueryHandler<GetSetupIntentQuery, SetupIntentResource> {
  constructor(private readonly reads: ScopedReads) {}

  async execute({ context, setupIntentId }: GetSetupIntentQuery): Promise<SetupIntentResource> {
    const found = await this.reads.retrieve<SetupIntentResource>(context, setupIntentView.collection, setupIntentId);
    if (!found) throw setupIntentNotFound(setupIntentId);
    return found.resource;
  }
}
