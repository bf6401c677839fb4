/**
 * Usage quantities as integers of 10⁻¹² units: every quantity has at most 12 decimal places, and
 * so do their sums and their products with whole milliseconds. Exact, like Big, and several times
 * cheaper for the running aggregates, which add one quantity per event.
 */
const PLACES = 12;
const UNIT = 10n ** BigInt(PLACES);

/** A plain decimal of at most 12 places (`-12.5`) as 10⁻¹² units. */
export function toScaled(decimal: string): bigint {
  if (!decimal.includes('.')) return BigInt(decimal) * UNIT;
  const negative = decimal.startsWith('-');
  const [whole, fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  if (fraction.length > PLACES) throw new RangeError(`${decimal} has more than ${PLACES} decimal places`);
  const units = BigInt(whole + fraction.padEnd(PLACES, '0'));
  return negative ? -units : units;
}

/** 10⁻¹² units as a plain decimal in its shortest form (`12.5`, `0`, `-0.001`). */
export function fromScaled(units: bigint): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(PLACES + 1, '0');
  const whole = digits.slice(0, -PLACES);
  const fraction = digits.slice(-PLACES).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}
