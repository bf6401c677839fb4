import { Injectable } from '@nestjs/common';
import { Command as NestCommand, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Command, Event } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import type { ResourceDoc } from '../public-events/resource-view';
import type { AggregateDefinition } from './aggregate-definition';
import { CommandRuntime, type CommandOptions, type CommandOutcome } from './command-runtime';

/** A command as a decider takes it, or built from "now" on the aggregate's clock and its state (see CommandRuntime.execute). */
export type CommandOrBuilder<S, C extends Command> = C | ((now: string, state: S) => C | Promise<C>);

/**
 * The one Nest command of Tally: any context's command, addressed to one aggregate. Contexts publish
 * their commands once, as their decider's union; this carries any of them to the command runtime.
 */
export class SendToAggregate<S, C extends Command, E extends Event, R extends ResourceDoc> extends NestCommand<CommandOutcome<S, R>> {
  constructor(
    readonly aggregate: AggregateDefinition<S, C, E, R>,
    readonly id: string,
    readonly command: CommandOrBuilder<S, C>,
    readonly context: RequestContext,
    readonly options: CommandOptions,
  ) {
    super();
  }
}

@CommandHandler(SendToAggregate)
export class SendToAggregateHandler implements ICommandHandler<SendToAggregate<unknown, Command, Event, ResourceDoc>> {
  constructor(private readonly runtime: CommandRuntime) {}

  execute({ aggregate, id, command, context, options }: SendToAggregate<unknown, Command, Event, ResourceDoc>) {
    return this.runtime.execute(aggregate, id, command, context, options);
  }
}

/**
 * Sends a command to an aggregate, from a controller, a reaction or a process alike:
 * `commands.send(customerAggregate, id, { type: 'UpdateCustomer', data }, context)`. The runtime
 * applies the context's command id once per stream and command type (see CommandRuntime), so a
 * redelivered command changes nothing while two different commands of one dispatch both apply.
 */
@Injectable()
export class Commands {
  constructor(private readonly bus: CommandBus) {}

  send<S, C extends Command, E extends Event, R extends ResourceDoc = never>(
    aggregate: AggregateDefinition<S, C, E, R>,
    id: string,
    command: CommandOrBuilder<S, C>,
    context: RequestContext,
    options: CommandOptions = {},
  ): Promise<CommandOutcome<S, R>> {
    return this.bus.execute(new SendToAggregate(aggregate, id, command, context, options));
  }
}
