import { ApiProperty } from '@nestjs/swagger';
import { METADATA_SCHEMA, type KnownFields } from '@tally/http';
import type { CouponDuration } from '../domain/coupon.events';
import type { CouponResource } from '../coupon.view';
import { DURATIONS } from './coupon.dto';

export class CouponRestrictionResponse {
  @ApiProperty({ type: [String] }) components!: string[];
}

export class CouponResponse implements KnownFields<CouponResource> {
  @ApiProperty({ example: 'cpn_01JD…' }) id!: string;
  @ApiProperty({ enum: ['coupon'] }) object!: 'coupon';
  @ApiProperty({ example: 'SPRING25' }) code!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '25' }) percent_off!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '5.00', description: 'In major units of `currency`, as sent' }) amount_off!: string | null;
  @ApiProperty({ type: String, nullable: true }) currency!: string | null;
  @ApiProperty({ enum: DURATIONS }) duration!: CouponDuration;
  @ApiProperty({ type: Number, nullable: true }) duration_in_periods!: number | null;
  @ApiProperty({ type: Number, nullable: true }) max_redemptions!: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) redeem_by!: string | null;
  @ApiProperty({ type: () => CouponRestrictionResponse, nullable: true }) applies_to!: CouponRestrictionResponse | null;
  @ApiProperty() times_redeemed!: number;
  @ApiProperty({ description: 'Whether it can still be redeemed' }) valid!: boolean;
  @ApiProperty(METADATA_SCHEMA) metadata!: Record<string, string>;
  @ApiProperty({ description: 'False in the sandbox' }) livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class DeletedCouponResponse {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['coupon'] }) object!: 'coupon';
  @ApiProperty({ enum: [true] }) deleted!: true;
}
