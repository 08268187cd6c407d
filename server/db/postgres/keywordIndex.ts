import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { type HeldKey, HeldKeys, POSTINGS_POLICY } from '../heldKeys.ts';
import type { KeyPostings } from '../keyPostings.ts';
import type { Db } from '../open.ts';
import { perDatabase } from '../perDatabase.ts';
import type { HeldPostings } from '../postingsRanking.ts';

/**
 * Each key's keyword postings in this process's memory (keyPostings.ts), read from memory_postings and kept in step
 * with it through keyword_changes (PostgreSQL migration 020), whichever replica or connection changed it. memory_postings
 * stays the store's truth; keywordSearch.ts ranks from here when a key's postings are at hand, and with its own
 * statement otherwise, with the same scores.
 *
 * The feed is read per key, after the last row of the key that the postings hold: the rows of one key become visible
 * in the order of their seq (the migration's lock), where rows of different keys do not.
 */

const { mostChangesApplied } = POSTINGS_POLICY;
/** Postings read per statement of a build (a few ms to take in), after which the server serves others. */
const BUILD_STEP = 20_000;

/** What a key's postings follow of the feed. */
interface Feed {
  /** The key's last row of the feed that the postings hold, and the forgotten keys counted when they were read. */
  cursor: number;
  forgets: number;
  /** Catching up runs one at a time: two at once could apply an older read of a memory after a newer one. */
  turn: Promise<unknown>;
}

class PostgresKeywordIndex {
  private readonly held = new HeldKeys<Feed>({
    feed: () => ({ cursor: 0, forgets: 0, turn: Promise.resolve() }),
    memories: async (db, apiKeyId) => {
      const { rows } = await sql<{ n: number }>`select documents as n from memory_search_stats where api_key_id = ${apiKeyId}`.execute(db);
      return rows[0]?.n ?? 0;
    },
    build: (db, apiKeyId, held) => this.build(db, apiKeyId, held),
  });
  /** A search word and the lexeme it is indexed under: '' for a word the index drops, false for a phrase. */
  private readonly terms = new LRUCache<string, string | false>({ max: 20_000 });

  /** The key's postings as the store holds them now, with the index's average length; null while they are built. */
  async postings(db: Db, apiKeyId: string): Promise<HeldPostings | null> {
    const held = await this.held.ready(db, apiKeyId);
    if (!held) return null;
    const current = held.feed.turn.then(() => this.catchUp(db, apiKeyId, held));
    held.feed.turn = current.catch(() => undefined);
    const average = await current;
    if (average !== null) return { postings: held.postings, average };
    this.held.drop(apiKeyId, held);
    return this.postings(db, apiKeyId);
  }

  /**
   * The lexemes the words are indexed under (a word the index drops: null), or null when a word is several lexemes,
   * which the store's statement matches as a phrase.
   */
  async termsOf(db: Db, words: readonly string[]): Promise<(string | null)[] | null> {
    const missing = [...new Set(words.filter((w) => !this.terms.has(w)))];
    if (missing.length > 0) {
      const { rows } = await sql<{
        lexemes: string[];
      }>`select array(select lexeme from unnest(to_tsvector('mnemo_english', word))) as lexemes
        from unnest(cast(${missing} as text[])) with ordinality as w(word, i) order by i`.execute(db);
      missing.forEach((word, i) => {
        const lexemes = rows[i]!.lexemes;
        this.terms.set(word, lexemes.length > 1 ? false : (lexemes[0] ?? ''));
      });
    }
    const terms = words.map((w) => this.terms.get(w));
    if (terms.some((t) => t === false || t === undefined)) return null;
    return terms.map((t) => (t === '' ? null : (t as string)));
  }

  /**
   * Reads the key's memories' lengths and postings in one snapshot (a read-only transaction, repeatable read), with the
   * key's last row of the feed in it: every change the snapshot lacks is a later row of the key. The postings are read
   * a step at a time, in the index's order, and the server serves others in between.
   */
  private async build(db: Db, apiKeyId: string, held: HeldKey<Feed>) {
    await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const { rows } = await sql<{ cursor: number; forgets: number }>`select
            greatest((select max(seq) from keyword_changes where api_key_id = ${apiKeyId}),
              (select upto from keyword_changes_pruned where api_key_id = ${apiKeyId}), 0) as cursor,
            (select forgets from keyword_changes_forgets) as forgets`.execute(trx);
        held.feed.cursor = rows[0]!.cursor;
        held.feed.forgets = rows[0]!.forgets;
        const { rows: memories } = await sql<{ pk: number; length: number }>`select s.pk, s.length
          from memories as m join memory_search as s on s.pk = m.pk where m.api_key_id = ${apiKeyId}`.execute(trx);
        for (const { pk, length } of memories) held.postings.put({ pk, length, terms: new Map() });
        // Another key sharing the tenant number would share its postings (never in practice: 64 bits of md5); only the
        // key's own memories, put above, take terms.
        for (let after = { lexeme: '', pk: 0 }; ; ) {
          const { rows: step } = await sql<{
            lexeme: string;
            pk: number;
            frequency: number;
          }>`select lexeme, pk, frequency::float8 as frequency
            from memory_postings where tenant = memory_postings_tenant(${apiKeyId}) and (lexeme, pk) > (${after.lexeme}, ${after.pk})
            order by lexeme, pk limit ${BUILD_STEP}`.execute(trx);
          for (const { lexeme, pk, frequency } of step) held.postings.addTerm(pk, lexeme, frequency);
          if (step.length < BUILD_STEP) return;
          after = step[step.length - 1]!;
          await new Promise((resolve) => setImmediate(resolve));
        }
      });
  }

  /**
   * Applies the feed's rows of the key after the postings' cursor and returns the index's average length, in one
   * statement; null when the postings must be built anew: a key was forgotten, rows they had not read were pruned, or
   * more than mostChangesApplied memories changed.
   */
  private async catchUp(db: Db, apiKeyId: string, held: HeldKey<Feed>): Promise<number | null> {
    if (this.held.peek(apiKeyId) !== held) return null;
    const { rows } = await sql<{ forgets: number; pruned: number | null; average: number; changes: { seq: number; pk: number }[] }>`select
        (select forgets from keyword_changes_forgets) as forgets,
        (select upto from keyword_changes_pruned where api_key_id = ${apiKeyId}) as pruned,
        (select greatest(sum(tokens)::float8 / greatest(sum(documents), 1), 1e-9) from memory_search_totals) as average,
        coalesce((select json_agg(json_build_object('seq', seq, 'pk', memory_pk) order by seq) from (select seq, memory_pk
          from keyword_changes where api_key_id = ${apiKeyId} and seq > ${held.feed.cursor} order by seq limit ${mostChangesApplied + 1}) as c),
          '[]') as changes`.execute(db);
    const { forgets, pruned, average, changes } = rows[0]!;
    if (forgets !== held.feed.forgets) {
      this.held.clear();
      return null;
    }
    if ((pruned ?? 0) > held.feed.cursor || changes.length > mostChangesApplied) return null;
    if (changes.length > 0) {
      await this.reread(db, apiKeyId, held.postings, [...new Set(changes.map((c) => c.pk))]);
      held.feed.cursor = changes[changes.length - 1]!.seq;
    }
    return average;
  }

  /** Reads the memories again as they are now: each is put as it reads, or removed if it is gone from the key. */
  private async reread(db: Db, apiKeyId: string, postings: KeyPostings, pks: readonly number[]) {
    const { rows } = await sql<{ pk: number; length: number; lexemes: string[]; frequencies: number[] }>`select s.pk, s.length,
        array(select lexeme from unnest(s.terms) order by lexeme) as lexemes,
        array(select memory_postings_frequency(weights)::float8 from unnest(s.terms) order by lexeme) as frequencies
      from memory_search as s where s.pk = any(cast(${pks} as bigint[])) and s.api_key_id = ${apiKeyId}`.execute(db);
    for (const pk of pks) postings.remove(pk);
    for (const { pk, length, lexemes, frequencies } of rows) {
      postings.put({ pk, length, terms: new Map(lexemes.map((lexeme, i) => [lexeme, frequencies[i]!])) });
    }
  }
}

/**
 * forgetApiKey: the key's rows of the feed go with its other traces, and one more forgotten key is counted. A process
 * holding the key's postings can no longer learn which of them are gone, so every process builds the postings it
 * holds anew: a key is forgotten rarely.
 */
export async function forgetKeywordChanges(db: Db, apiKeyId: string): Promise<void> {
  await sql`delete from keyword_changes where api_key_id = ${apiKeyId}`.execute(db);
  await sql`delete from keyword_changes_pruned where api_key_id = ${apiKeyId}`.execute(db);
  await sql`update keyword_changes_forgets set forgets = forgets + 1`.execute(db);
}

/** One index per database. */
export const keywordIndexOf = perDatabase(() => new PostgresKeywordIndex());
