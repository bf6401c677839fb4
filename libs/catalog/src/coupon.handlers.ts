import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Clock, CommandIntent } from '@tally/kernel';
import { CLOCK, type RequestContext } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import { couponAggregate, couponIdOf } from './coupon.aggregate';
import { couponAt, type CouponResource } from './coupon.view';
import type { CouponCommand, RedeemCoupon } from './domain/coupon.decider';

/** A coupon as a command left it (undefined once deleted), with the revision for its ETag. */
export interface CouponWritten {
  coupon: CouponResource | undefined;
  id: string;
  revision: number;
}

/** A coupon command as a request states it: the handler adds the coupon's id and "now". */
export type CouponIntent = CommandIntent<Exclude<CouponCommand, RedeemCoupon>, 'coupon_id' | 'at'>;

export class ExecuteCouponCommand extends Command<CouponWritten> {
  constructor(
    readonly context: RequestContext,
    /** The coupon's code or id; for CreateCoupon, its code. */
    readonly codeOrId: string,
    readonly intent: CouponIntent,
  ) {
    super();
  }
}

@CommandHandler(ExecuteCouponCommand)
export class ExecuteCouponHandler implements ICommandHandler<ExecuteCouponCommand, CouponWritten> {
  constructor(
    private readonly runtime: CommandRuntime,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, codeOrId, intent }: ExecuteCouponCommand): Promise<CouponWritten> {
    const at = this.clock.now().toISOString();
    const coupon_id = couponIdOf(context, codeOrId);
    const command = { type: intent.type, data: { ...intent.data, coupon_id, at } } as CouponCommand;
    const { resource: coupon, revision } = await this.runtime.execute(couponAggregate, coupon_id, command, context);
    return { coupon: coupon && couponAt(coupon, at), id: coupon_id, revision };
  }
}
