import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { type HeldKey, HeldKeys, POSTINGS_POLICY } from '../heldKeys.ts';
import type { KeyPostings } from '../keyPostings.ts';
import type { Db } from '../open.ts';
import { perDatabase } from '../perDatabase.ts';
import type { HeldPostings } from '../postingsRanking.ts';
import { tenantPrefix, tenantTerms } from '../tenantTerms.ts';
import { databaseFile } from './databaseFile.ts';
import { indexAverages, rowLength } from './fts5Records.ts';

/**
 * Each key's keyword postings in this process's memory (keyPostings.ts), read from the FTS5 index and kept in step with
 * it through keyword_changes (migration 030), whichever process or connection changed it. The FTS5 index stays the
 * store's truth; keywordSearch.ts ranks from here when a key's postings are at hand and from FTS5 otherwise, with the
 * same scores.
 */

/** memories_fts's tokenizer (migration 009): the terms of a text are the terms FTS5 would index it under. */
const TOKENIZER = 'porter unicode61';
/** FTS5's column weights in the keyword tier: a word in a memory's content counts 1, in its key 0.4. */
export const TENANT_COLUMN_WEIGHTS = { tenant_content: 1, tenant_key: 0.4 } as const;

/** A column's weight in the keyword tier; undefined for the plain columns, which it does not search. */
const columnWeight = (col: string): number | undefined => TENANT_COLUMN_WEIGHTS[col as keyof typeof TENANT_COLUMN_WEIGHTS];

/** The feed's row for a forgotten key, which names none (forgetKeywordChanges). */
const FORGOTTEN = '';
const { mostChangesApplied: MOST_CHANGES_APPLIED } = POSTINGS_POLICY;
/** Index rows read per step of a build (a few ms), after which the server serves others. */
const BUILD_STEP = 5_000;
/** More rows of the feed than this since the last search of any key: every key's postings are built anew. */
const MOST_CHANGES_READ = 20_000;

/** What a key's postings follow of the feed: the memories it named since they were last read, read again at the key's next search. */
interface Feed {
  changed: Set<number>;
}

class KeywordIndex {
  private readonly held = new HeldKeys<Feed>({
    feed: () => ({ changed: new Set() }),
    memories: async (db, apiKeyId) => {
      const { rows } = await sql<{ n: number }>`select memories as n from memory_counts where api_key_id = ${apiKeyId}`.execute(db);
      return rows[0]?.n ?? 0;
    },
    build: (db, apiKeyId, held) => this.build(db, apiKeyId, held),
  });
  /** A search word, with its key's prefix, and the term it is indexed under: '' for a word FTS5 drops, false for a phrase. */
  private readonly terms = new LRUCache<string, string | false>({ max: 20_000 });
  private scratchTables: Promise<unknown> | null = null;
  /**
   * The last row of the feed this process has read, or null before the first read. It is read before any build's
   * snapshot is taken, so every change a build does not hold is read after it.
   */
  private cursor: number | null = null;
  /** Catching up runs one at a time: two at once could apply an older read of a memory after a newer one. */
  private turn: Promise<unknown> = Promise.resolve();
  /** The database's file, read once: it does not change under a connection. */
  private databaseFile: Promise<string | null> | null = null;

  private file(db: Db) {
    this.databaseFile ??= databaseFile(db).catch((error: unknown) => {
      this.databaseFile = null;
      throw error;
    });
    return this.databaseFile;
  }

  /** The key's postings as the database holds them now, with the index's average length; null while they are built. */
  async postings(db: Db, apiKeyId: string): Promise<HeldPostings | null> {
    // A build reads on a connection of its own, to the file: an in-memory database is ranked by FTS5 alone.
    if ((await this.file(db)) === null) return null;
    const held = await this.held.ready(db, apiKeyId);
    if (!held) return null;
    const current = this.turn.then(() => this.catchUp(db, apiKeyId, held));
    this.turn = current.catch(() => undefined);
    if (await current) return { postings: held.postings, average: await averageRowLength(db) };
    this.held.drop(apiKeyId, held);
    return this.postings(db, apiKeyId);
  }

  /**
   * The terms the words are indexed under in the key's tenant terms (a word FTS5 drops: null), or null when a word
   * would be a phrase of several terms, which only FTS5 matches.
   */
  async termsOf(db: Db, apiKeyId: string, words: readonly string[]): Promise<(string | null)[] | null> {
    const prefix = tenantPrefix(apiKeyId);
    const missing = [...new Set(words.map((w) => prefix + w).filter((text) => !this.terms.has(text)))];
    if (missing.length > 0) {
      const found = await this.tokenize(
        db,
        missing.map((text) => ({ tenant_content: text, tenant_key: '' })),
      );
      missing.forEach((text, i) => {
        const [term, ...others] = found[i]!;
        const phrase = others.length > 0 || (term !== undefined && term[1] > 1);
        this.terms.set(text, phrase ? false : (term?.[0] ?? ''));
      });
    }
    const terms = words.map((w) => this.terms.get(prefix + w));
    if (terms.some((t) => t === false || t === undefined)) return null;
    return terms.map((t) => (t === '' ? null : (t as string)));
  }

  /**
   * Reads the key's memories' lengths and terms (FTS5's instance table) on a read-only connection of its own, in one
   * snapshot taken after the process's cursor into the feed was set: whatever the snapshot lacks is in the feed after
   * the cursor, and is read again at the key's next search (a memory read twice is the same memory). The rows are read
   * a step at a time and the server serves others in between: the largest key's common words hold hundreds of
   * thousands of rows, which one statement on the server's connection would read while every request waits.
   */
  private async build(db: Db, apiKeyId: string, held: HeldKey<Feed>) {
    const file = (await this.file(db))!;
    if (this.cursor === null) this.cursor = (await feedEnds(db)).head;
    const reader = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      reader.exec('create virtual table temp.memories_fts_instances using fts5vocab(main, memories_fts, instance)');
      reader.exec('begin');
      const lengths = reader
        .prepare('select m.pk, d.sz from memories m join memories_fts_docsize d on d.id = m.pk where m.api_key_id = ?')
        .raw();
      await inSteps(lengths.iterate(apiKeyId) as IterableIterator<[number, Uint8Array]>, ([pk, sz]) => {
        held.postings.put({ pk, length: rowLength(sz), terms: new Map() });
      });
      const prefix = tenantPrefix(apiKeyId);
      // A prefix's terms sort between the prefix itself and the prefix followed by a character above every letter.
      const instances = reader.prepare('select term, doc, col from temp.memories_fts_instances where term > ? and term < ?').raw();
      const terms = new TermFrequencies(held.postings);
      await inSteps(instances.iterate(prefix, `${prefix}\u{10ffff}`) as IterableIterator<[string, number, string]>, (row) => {
        terms.add(...row);
      });
      terms.flush();
      reader.exec('commit');
    } finally {
      reader.close();
    }
  }

  /** Applies the changes the feed named for the key since its last search; false when its postings must be built anew. */
  private async catchUp(db: Db, apiKeyId: string, held: HeldKey<Feed>): Promise<boolean> {
    await this.follow(db);
    const { changed } = held.feed;
    if (this.held.peek(apiKeyId) !== held || changed.size > MOST_CHANGES_APPLIED) return false;
    if (changed.size > 0) {
      const pks = [...changed];
      changed.clear();
      await this.reread(db, apiKeyId, held.postings, pks);
    }
    return true;
  }

  /**
   * Reads the feed's rows after the cursor (every key's: one read serves all, and a write costs one row appended, no
   * index) and hands each memory to its key's postings, if this process holds them. Every key's postings are dropped,
   * to be built anew at their next search, when the feed no longer holds the rows after the cursor (pruned, or the
   * file replaced by an older copy), when there are more than MOST_CHANGES_READ of them, or when a key was forgotten.
   */
  private async follow(db: Db) {
    const { head, floor } = await feedEnds(db);
    const cursor = this.cursor ?? head;
    this.cursor = head;
    if (cursor === head) return;
    if (cursor < floor - 1 || cursor > head || head - cursor > MOST_CHANGES_READ) {
      this.held.clear();
      return;
    }
    const { rows } = await sql<{ api_key_id: string; memory_pk: number }>`select api_key_id, memory_pk from keyword_changes
      where seq > ${cursor} and seq <= ${head}`.execute(db);
    if (rows.some((r) => r.api_key_id === FORGOTTEN)) {
      this.held.clear();
      return;
    }
    for (const row of rows) this.held.peek(row.api_key_id)?.feed.changed.add(row.memory_pk);
  }

  /** Reads the memories again as they are now: each is put as it reads, or removed if it is gone from the key. */
  private async reread(db: Db, apiKeyId: string, postings: KeyPostings, pks: readonly number[]) {
    const { rows } = await sql<{ pk: number; api_key_id: string; content: string; key: string; sz: Uint8Array }>`select
        m.pk, m.api_key_id, m.content, m.key, d.sz
      from memories m join memories_fts_docsize d on d.id = m.pk
      where m.pk in (select value from json_each(${JSON.stringify(pks)}))`.execute(db);
    const current = rows.filter((r) => r.api_key_id === apiKeyId);
    const terms = await this.tokenize(
      db,
      current.map((r) => ({ tenant_content: tenantTerms(apiKeyId, r.content), tenant_key: tenantTerms(apiKeyId, r.key) })),
    );
    for (const pk of pks) postings.remove(pk);
    current.forEach((r, i) => {
      postings.put({ pk: r.pk, length: rowLength(r.sz), terms: terms[i]! });
    });
  }

  /**
   * Each text's terms, weighted by column, as FTS5 indexes it: the texts go through a scratch FTS5 table of the same
   * tokenizer, in memory and on this connection only, and out again at once.
   */
  private async tokenize(db: Db, texts: readonly { tenant_content: string; tenant_key: string }[]) {
    const terms = texts.map(() => new Map<string, number>());
    if (texts.length === 0) return terms;
    await this.scratch(db);
    await sql`insert into temp.mnemo_terms (rowid, tenant_content, tenant_key)
      select key + 1, value ->> 0, value ->> 1 from json_each(${JSON.stringify(texts.map((t) => [t.tenant_content, t.tenant_key]))})`.execute(
      db,
    );
    try {
      const { rows } = await sql<{ term: string; doc: number; col: string }>`select term, doc, col from temp.mnemo_terms_instances`.execute(
        db,
      );
      for (const { term, doc, col } of rows) {
        const held = terms[doc - 1]!;
        held.set(term, (held.get(term) ?? 0) + (columnWeight(col) ?? 0));
      }
    } finally {
      await sql`delete from temp.mnemo_terms`.execute(db);
    }
    return terms;
  }

  /** The tokenizer's scratch table, once per connection. */
  private scratch(db: Db) {
    this.scratchTables ??= (async () => {
      await sql`create virtual table if not exists temp.mnemo_terms using fts5(tenant_content, tenant_key, tokenize = ${sql.lit(TOKENIZER)})`.execute(
        db,
      );
      await sql`create virtual table if not exists temp.mnemo_terms_instances using fts5vocab(temp, mnemo_terms, instance)`.execute(db);
    })().catch((error: unknown) => {
      this.scratchTables = null;
      throw error;
    });
    return this.scratchTables;
  }
}

/** FTS5's instance rows of a key's terms, in the order the instance table gives them (by term, then memory), as postings. */
class TermFrequencies {
  private term = '';
  private readonly frequencies = new Map<number, number>();

  constructor(private readonly postings: KeyPostings) {}

  add(term: string, doc: number, col: string) {
    if (term !== this.term) {
      this.flush();
      this.term = term;
    }
    const weight = columnWeight(col);
    // A plain column holding a word that begins like the prefix: weighted 0 in the keyword tier.
    if (weight !== undefined) this.frequencies.set(doc, (this.frequencies.get(doc) ?? 0) + weight);
  }

  flush() {
    for (const [pk, frequency] of this.frequencies) this.postings.addTerm(pk, this.term, frequency);
    this.frequencies.clear();
  }
}

/** Each row to `take`, letting the server serve others after every BUILD_STEP rows. */
async function inSteps<T>(rows: IterableIterator<T>, take: (row: T) => void) {
  let n = 0;
  for (const row of rows) {
    take(row);
    if (++n % BUILD_STEP === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * forgetApiKey: the key's rows of the feed go with its other traces, and a row naming no key takes their place. A
 * process holding the key's postings can no longer learn which of them are gone, so every process builds the postings
 * it holds anew: a key is forgotten rarely.
 */
export async function forgetKeywordChanges(db: Db, apiKeyId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`delete from keyword_changes where api_key_id = ${apiKeyId}`.execute(trx);
    await sql`insert into keyword_changes (api_key_id, memory_pk) values (${FORGOTTEN}, 0)`.execute(trx);
  });
}

/** The feed's newest and oldest rows (0 when it is empty). */
async function feedEnds(db: Db): Promise<{ head: number; floor: number }> {
  const { rows } = await sql<{ head: number | null; floor: number | null }>`select
    (select max(seq) from keyword_changes) as head, (select min(seq) from keyword_changes) as floor`.execute(db);
  return { head: rows[0]?.head ?? 0, floor: rows[0]?.floor ?? 0 };
}

/** The whole index's average row length, as bm25() reads it. */
async function averageRowLength(db: Db): Promise<number> {
  const { rows } = await sql<{ block: Uint8Array | null }>`select block from memories_fts_data where id = 1`.execute(db);
  return indexAverages(rows[0]?.block ?? null).averageLength;
}

/** One index per database. */
export const keywordIndexOf = perDatabase(() => new KeywordIndex());
