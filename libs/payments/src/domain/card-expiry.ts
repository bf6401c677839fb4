/** A card works through the last day of its expiry month: it expires at the first instant of the next month, UTC. */
export const cardExpiry = ({ exp_month, exp_year }: { exp_month: number; exp_year: number }): string =>
  new Date(Date.UTC(exp_year, exp_month, 1)).toISOString();

/** Notice of the coming expiry is given 30 days before it. */
export const EXPIRING_NOTICE_DAYS = 30;

export const expiringNoticeAt = (expiresAt: string): string => new Date(Date.parse(expiresAt) - EXPIRING_NOTICE_DAYS * 86_400_000).toISOString();
