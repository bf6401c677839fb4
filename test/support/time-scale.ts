/**
 * Time bounds of the heavy suites (crash runs, property tests, the fuzz), stretched by
 * TALLY_TEST_TIME_SCALE (default 1): the MongoDB pass of CI sets it, as a read-model write there is
 * a round trip to FerretDB, which scans a collection for every guarded write, rather than a call into SQLite.
 */
const TIME_SCALE = timeScale(process.env.TALLY_TEST_TIME_SCALE);

export const scaled = (ms: number): number => Math.round(ms * TIME_SCALE);

function timeScale(value: string | undefined): number {
  if (value === undefined) return 1;
  const scale = Number(value);
  if (!Number.isFinite(scale) || scale < 1) throw new Error(`TALLY_TEST_TIME_SCALE is a number of at least 1, not ${value}`);
  return scale;
}
