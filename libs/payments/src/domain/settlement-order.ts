interface DueInvoice {
  id: string;
  dueAt: string | null;
}

/** The order a wallet settles open invoices in: oldest due first, then by id, so the order is the same on every run. */
export function oldestDueFirst<I extends DueInvoice>(invoices: readonly I[]): I[] {
  const dueOf = (invoice: I) => invoice.dueAt ?? '';
  return [...invoices].sort((a, b) => (dueOf(a) < dueOf(b) ? -1 : dueOf(a) > dueOf(b) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
