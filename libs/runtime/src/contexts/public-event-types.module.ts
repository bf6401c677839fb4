import { Module, type DynamicModule } from '@nestjs/common';
import type { ComposedContexts } from './context-manifest';

/** Every context's public event types, composed by the app: the catalogue the webhooks context reads without depending on the others. */
export const PUBLIC_EVENT_TYPES = Symbol('PublicEventTypes');

/** Provides the composed contexts' public event types to every module of an app. */
@Module({})
export class PublicEventTypesModule {
  static forRoot(contexts: Pick<ComposedContexts, 'publicEventTypes'>): DynamicModule {
    return { module: PublicEventTypesModule, global: true, providers: [{ provide: PUBLIC_EVENT_TYPES, useValue: contexts.publicEventTypes }], exports: [PUBLIC_EVENT_TYPES] };
  }
}
