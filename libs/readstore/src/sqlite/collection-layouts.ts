import type { Database, Statement } from 'better-sqlite3';
import { CollectionLayout } from './collection-layout';
import { keyColumnField, unquotedTableName } from './sqlite-schema';

/**
 * The layout of each collection's table, read from the table's columns. Another store on the same
 * file (another process, say) may add columns at any time, and every writer must fill them, so
 * `sync` drops what was read whenever the schema changed since.
 */
export class CollectionLayouts {
  private readonly layouts = new Map<string, CollectionLayout>();
  private readonly schemaVersion: Statement;
  private readonly columns: Statement;
  private version: number | undefined;

  constructor(db: Database) {
    this.schemaVersion = db.prepare('PRAGMA schema_version').pluck();
    this.columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck();
  }

  /** Call before using layouts; inside the transaction that writes with them. */
  sync(): void {
    const version = this.schemaVersion.get() as number;
    if (version !== this.version) this.layouts.clear();
    this.version = version;
  }

  /** The layout of a collection whose table exists. */
  of(collection: string): CollectionLayout {
    let layout = this.layouts.get(collection);
    if (!layout) {
      const columns = this.columns.all(unquotedTableName(collection)) as string[];
      const fields = columns.map(keyColumnField).filter((field): field is string => field !== undefined);
      layout = new CollectionLayout(collection, fields);
      this.layouts.set(collection, layout);
    }
    return layout;
  }
}
