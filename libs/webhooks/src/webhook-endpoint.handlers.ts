import { randomBytes } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { IdGenerator } from '@tally/kernel';
import { ID_GENERATOR, type RequestContext } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import type { UpdateWebhookEndpoint } from './domain/webhook-endpoint.decider';
import { webhookEndpointAggregate } from './webhook-endpoint.aggregate';
import type { WebhookEndpointResource } from './webhook-endpoint.view';

export type WebhookEndpointWithSecret = WebhookEndpointResource & { secret: string };

export class CreateWebhookEndpointCommand extends Command<WebhookEndpointWithSecret> {
  constructor(
    readonly context: RequestContext,
    readonly input: { url: string; events: readonly string[]; description: string | null; api_version: string },
  ) {
    super();
  }
}

export class UpdateWebhookEndpointCommand extends Command<WebhookEndpointResource> {
  constructor(
    readonly context: RequestContext,
    readonly endpointId: string,
    readonly patch: Omit<UpdateWebhookEndpoint['data'], 'webhook_endpoint_id' | 'livemode'>,
  ) {
    super();
  }
}

export class RotateWebhookSecretCommand extends Command<WebhookEndpointWithSecret> {
  constructor(
    readonly context: RequestContext,
    readonly endpointId: string,
    /** Seconds the old secret keeps signing beside the new one. */
    readonly expiresIn: number,
  ) {
    super();
  }
}

export class DeleteWebhookEndpointCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly endpointId: string,
  ) {
    super();
  }
}

/** A signing secret as Stripe shows one: `whsec_` and 32 characters of 192 random bits. */
const newSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

@CommandHandler(CreateWebhookEndpointCommand)
export class CreateWebhookEndpointHandler implements ICommandHandler<CreateWebhookEndpointCommand, WebhookEndpointWithSecret> {
  constructor(
    private readonly runtime: CommandRuntime,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ context, input }: CreateWebhookEndpointCommand): Promise<WebhookEndpointWithSecret> {
    const id = this.ids.next('we');
    const secret = newSecret();
    const data = { webhook_endpoint_id: id, ...input, secret, livemode: context.environment === 'live' };
    const { resource } = await this.runtime.execute(webhookEndpointAggregate, id, { type: 'CreateWebhookEndpoint', data }, context, { newStream: true });
    return { ...resource!, secret };
  }
}

@CommandHandler(UpdateWebhookEndpointCommand)
export class UpdateWebhookEndpointHandler implements ICommandHandler<UpdateWebhookEndpointCommand, WebhookEndpointResource> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, endpointId, patch }: UpdateWebhookEndpointCommand): Promise<WebhookEndpointResource> {
    const data = { webhook_endpoint_id: endpointId, ...patch, livemode: context.environment === 'live' };
    return (await this.runtime.execute(webhookEndpointAggregate, endpointId, { type: 'UpdateWebhookEndpoint', data }, context)).resource!;
  }
}

@CommandHandler(RotateWebhookSecretCommand)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecretCommand, WebhookEndpointWithSecret> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, endpointId, expiresIn }: RotateWebhookSecretCommand): Promise<WebhookEndpointWithSecret> {
    const secret = newSecret();
    const rotate = (now: string) => ({
      type: 'RotateWebhookEndpointSecret' as const,
      data: { webhook_endpoint_id: endpointId, secret, previous_secret_expires_at: new Date(Date.parse(now) + expiresIn * 1000).toISOString() },
    });
    const { resource } = await this.runtime.execute(webhookEndpointAggregate, endpointId, rotate, context);
    return { ...resource!, secret };
  }
}

@CommandHandler(DeleteWebhookEndpointCommand)
export class DeleteWebhookEndpointHandler implements ICommandHandler<DeleteWebhookEndpointCommand, void> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, endpointId }: DeleteWebhookEndpointCommand): Promise<void> {
    await this.runtime.execute(webhookEndpointAggregate, endpointId, { type: 'DeleteWebhookEndpoint', data: { webhook_endpoint_id: endpointId } }, context);
  }
}

export const webhookEndpointHandlers = [CreateWebhookEndpointHandler, UpdateWebhookEndpointHandler, RotateWebhookSecretHandler, DeleteWebhookEndpointHandler];
