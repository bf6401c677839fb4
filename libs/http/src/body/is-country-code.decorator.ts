import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isCountryCode } from '@tally/kernel';

/** An assigned ISO 3166-1 alpha-2 code, by the kernel's list; refused as the field error `field.isCountryCode`. */
export const IsCountryCode = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isCountryCode',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isCountryCode(value),
        defaultMessage: () => 'country is an ISO 3166-1 alpha-2 code such as DE',
      },
    },
    options,
  );
