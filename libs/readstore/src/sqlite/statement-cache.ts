import type { Database, Statement } from 'better-sqlite3';

/** Prepared statements keyed by their SQL text (which encodes the query's shape), least recently used dropped first. */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly capacity = 256,
  ) {}

  get(sql: string): Statement {
    const cached = this.statements.get(sql);
    if (cached) {
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const statement = this.db.prepare(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > this.capacity) this.statements.delete(this.statements.keys().next().value!);
    return statement;
  }
}
