import { ValidateBy } from 'class-validator';
import { isWithinTimeRange, parseInstant, TIMESTAMP, TIMESTAMP_OUT_OF_RANGE, timestampOutOfRangeMessage } from '@tally/kernel';

const isTimestamp = (value: unknown): value is string => typeof value === 'string' && TIMESTAMP.test(value) && parseInstant(value) !== undefined;

/**
 * A body field holding a TIMESTAMP of a real date (no February 30), refused as the field error
 * `field.isTimestamp`, in TIME_RANGE: outside it, refused as `request.timestamp_out_of_range`
 * (the body's problem too when nothing else in it fails; see BodyValidationPipe).
 */
export const IsTimestamp = (): PropertyDecorator => (target, property) => {
  ValidateBy({
    name: 'isTimestamp',
    validator: { validate: isTimestamp, defaultMessage: () => '$property is an ISO 8601 timestamp with a time zone, e.g. 2026-06-01T00:00:00Z' },
  })(target, property);
  // A malformed timestamp fails the check above only.
  ValidateBy(
    { name: 'isWithinTimeRange', validator: { validate: (value: unknown) => !isTimestamp(value) || isWithinTimeRange(value), defaultMessage: () => timestampOutOfRangeMessage('$property') } },
    { context: { problem: TIMESTAMP_OUT_OF_RANGE } },
  )(target, property);
};
