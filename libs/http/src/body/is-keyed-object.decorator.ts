import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsObject } from 'class-validator';
import { keyedObject } from '@tally/kernel';
import { isJsonObject } from './json-object';
import { unescapeKey } from './reserved-keys';

/**
 * A body field whose keys the user chooses (metadata, quantities by meter): kept as a
 * prototype-free object, so every key sent, `constructor` and `__proto__` included, is a key
 * like any other from here on.
 */
export const IsKeyedObject = (): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => (isJsonObject(value) ? keyedObject(Object.entries(value).map(([key, inner]) => [unescapeKey(key), inner] as const)) : value)),
    IsObject({ message: '$property is a JSON object' }),
  );
