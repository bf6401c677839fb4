import { validate } from 'class-validator';
import { IsTimestamp } from './timestamp';

class Body {
  @IsTimestamp() at!: string;
}

const errorsFor = async (at: unknown) => (await validate(Object.assign(new Body(), { at }))).flatMap((error) => Object.keys(error.constraints ?? {}));

describe('timestamps', () => {
  it.each(['2026-06-01T00:00:00Z', '2026-06-01T02:00:00.123456789+02:00', '2028-02-29T23:59:59-05:30', '2000-01-01T00:00:00+14:00', '2099-12-31T23:59:59.999-12:00'])('takes %s in a body', async (at) => {
    expect(await errorsFor(at)).toEqual([]);
  });

  it.each(['2026-06-01', '2026-06-01T00:00:00', '2026-06-01t00:00:00z', '2026-02-30T00:00:00Z', '2026-06-30T23:59:60Z', '2026-06-01T00:00:00.1234567890Z', '2026-06-01T00:00:00+24:00', '٢٠٢٦-06-01T00:00:00Z', 20260601])(
    'refuses %s in a body as field.isTimestamp',
    async (at) => {
      expect(await errorsFor(at)).toEqual(['isTimestamp']);
    },
  );

  it.each(['0001-01-01T00:00:00Z', '0999-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '1999-12-31T23:59:59-12:00', '2100-01-01T00:00:00Z', '9999-12-31T23:59:59Z'])(
    'refuses %s, outside the years 2000 to 2099, as isWithinTimeRange only',
    async (at) => {
      expect(await errorsFor(at)).toEqual(['isWithinTimeRange']);
    },
  );
});
