const DAY_MS = 24 * 60 * 60 * 1000;

/** The caller's `now` as an ISO string with milliseconds. */
export const isoMillis = (now: string): string => new Date(now).toISOString();

export const oneDayAfter = (now: string): string => new Date(Date.parse(now) + DAY_MS).toISOString();

/** A card expiry at the end of `now`'s month (UTC), or of the next month when `now` is on its month's last day. */
export function expiryWithinAMonth(now: string): { exp_month: number; exp_year: number } {
  const at = new Date(now);
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  const lastDayOfMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const expiry = new Date(Date.UTC(year, at.getUTCDate() === lastDayOfMonth ? month + 1 : month, 1));
  return { exp_month: expiry.getUTCMonth() + 1, exp_year: expiry.getUTCFullYear() };
}
