import type { Db } from 'mongodb';
import { decodePosition, encodePosition } from '../position-key';
import type { Checkpoint, Write } from '../read-store.port';

/** Outside COLLECTION_NAME (a leading `_`), so no read model can be named the same. */
const ENTRIES = '_commit_journal';
const PARTS = '_commit_journal_parts';
/** Characters of serialized writes a part holds: at most 3 bytes each in UTF-8, well under MongoDB's 16 MB a document. */
const PART_CHARS = 4_000_000;
/** Keys of one key-set write a part holds at most (a usage commit may add hundreds of thousands). */
const KEYS_PER_PIECE = 50_000;

interface Entry {
  /** The checkpoint's name: a runner has one commit in flight at a time. */
  _id: string;
  position: string;
  parts: number;
}

interface Part {
  _id: string;
  checkpoint: string;
  position: string;
  index: number;
  writes: string;
}

/** A commit as the journal holds it: enough to apply it again. */
export interface JournaledCommit {
  checkpoint: Checkpoint;
  writes: Write[];
}

/**
 * What makes a commit to MongoDB all or nothing across a crash, without multi-document
 * transactions (FerretDB has none). Before a commit's writes are applied, they are recorded whole:
 * its parts, then the entry that names them, one document written last, so an entry always has
 * every part. After the checkpoint moved, the entry goes. A commit that stopped half-way leaves its
 * entry, and the next read of that checkpoint applies it again (its writes are position-guarded,
 * so applying them twice changes nothing) before anything resumes from the checkpoint. Without it,
 * a replay from the old checkpoint would fold its events into documents that already hold them.
 */
export class CommitJournal {
  constructor(private readonly db: Db) {}

  async record({ name, position }: Checkpoint, writes: readonly Write[]): Promise<void> {
    const at = encodePosition(position);
    const parts = partsOf(writes);
    for (const [index, serialized] of parts.entries()) {
      await this.parts().replaceOne({ _id: `${name}@${at}#${index}` }, { checkpoint: name, position: at, index, writes: serialized }, { upsert: true });
    }
    await this.entries().replaceOne({ _id: name }, { position: at, parts: parts.length }, { upsert: true });
  }

  /** The commit an interrupted runner left, whole; none when it finished (or a reader finished it meanwhile). */
  async pending(name: string): Promise<JournaledCommit | undefined> {
    const entry = await this.entries().findOne({ _id: name });
    if (!entry) return undefined;
    const parts = await this.parts().find({ checkpoint: name, position: entry.position }, { sort: { index: 1 } }).toArray();
    if (parts.length !== entry.parts) return undefined;
    return { checkpoint: { name, position: decodePosition(entry.position) }, writes: parts.flatMap((part) => parse(part.writes)) };
  }

  /** The entry first, so that a part is never missing from an entry; parts of earlier attempts that never got an entry go too. */
  async clear({ name, position }: Checkpoint): Promise<void> {
    const at = encodePosition(position);
    await this.entries().deleteOne({ _id: name, position: at });
    await this.parts().deleteMany({ checkpoint: name, position: { $lte: at } });
  }

  /** For a rebuild: nothing left behind by the runner of these checkpoints is applied after it. */
  async forget(names: readonly string[]): Promise<void> {
    await this.entries().deleteMany({ _id: { $in: [...names] } });
    await this.parts().deleteMany({ checkpoint: { $in: [...names] } });
  }

  private entries() {
    return this.db.collection<Entry>(ENTRIES);
  }

  private parts() {
    return this.db.collection<Part>(PARTS);
  }
}

/** Positions are bigints, which JSON has not: they travel as decimal strings. */
function partsOf(writes: readonly Write[]): string[] {
  const parts: string[][] = [[]];
  let chars = 0;
  for (const write of writes.flatMap(piecesOf)) {
    const serialized = JSON.stringify('position' in write ? { ...write, position: write.position.toString() } : write);
    if (chars > 0 && chars + serialized.length > PART_CHARS) {
      parts.push([]);
      chars = 0;
    }
    parts[parts.length - 1].push(serialized);
    chars += serialized.length + 1;
  }
  return parts.map((part) => `[${part.join(',')}]`);
}

/** A large key-set write as several, so that each fits a part. */
function piecesOf(write: Write): Write[] {
  if (write.op !== 'add_keys' || write.keys.length <= KEYS_PER_PIECE) return [write];
  const pieces: Write[] = [];
  for (let start = 0; start < write.keys.length; start += KEYS_PER_PIECE) pieces.push({ ...write, keys: write.keys.slice(start, start + KEYS_PER_PIECE) });
  return pieces;
}

function parse(serialized: string): Write[] {
  return (JSON.parse(serialized) as (Write | (Write & { position: string }))[]).map((write) =>
    'position' in write ? ({ ...write, position: BigInt(write.position) } as Write) : write,
  );
}
