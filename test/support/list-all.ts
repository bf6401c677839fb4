import type { TallyUnderTest } from './tally';

/** Every item of a list endpoint, page after page of 100: `path` may carry its own filters. */
export async function listAll<T>(api: ReturnType<TallyUnderTest['as']>, path: string): Promise<T[]> {
  const items: T[] = [];
  for (let cursor: string | null = null; ; ) {
    const page: { data: T[]; has_more: boolean; next_cursor: string | null } = (await api.get(`${path}${path.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${cursor}` : ''}`).expect(200)).body;
    items.push(...page.data);
    if (!page.has_more) return items;
    cursor = page.next_cursor;
  }
}
