import { ValidateBy } from 'class-validator';
import { parseInstant, TIMESTAMP } from '@tally/kernel';

/** A body field holding a TIMESTAMP of a real date (no February 30); refused as the field error `field.isTimestamp`. */
export const IsTimestamp = (): PropertyDecorator =>
  ValidateBy({
    name: 'isTimestamp',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && TIMESTAMP.test(value) && parseInstant(value) !== undefined,
      defaultMessage: () => '$property is an ISO 8601 timestamp with a time zone, e.g. 2026-06-01T00:00:00Z',
    },
  });
