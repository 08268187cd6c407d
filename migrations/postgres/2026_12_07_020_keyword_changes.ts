import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The keyword index's change feed on PostgreSQL, as SQLite's migration 030 has it: each change of
// the text the keyword index holds (a memory written, deleted, or its content, key or API key changed; the events of
// the memories_fts triggers) adds a row naming the key and the memory, and a process that keeps keys' postings in
// memory (server/db/postgres/keywordIndex.ts) reads a key's rows after the last it read and reads those memories again,
// whichever replica or connection wrote them. Ids only, no text.
//
// Read per key, in the order of `seq`: writers of PostgreSQL commit in another order than they draw from a sequence,
// so each trigger first takes a lock on the key (an advisory lock on its tenant number, held to the commit), and only
// then draws. A writer of the key waits for the one before to commit or roll back, so a key's rows become visible in
// the order of their seq, and a reader that saw row n of a key has seen every earlier row of that key.
//
// The feed keeps its newest 100,000 changes, pruned once in a thousand (by one writer at a time); keyword_changes_pruned
// keeps, per key, the last of its rows pruned, so that a process that had not read them builds the key's postings
// anew. Forgetting a key deletes its rows and counts one more in keyword_changes_forgets, and every process then builds
// the postings it holds anew: it can no longer learn which of them went with the key, and no row names the key.
/** The advisory lock of the one writer pruning the feed at a time (an arbitrary number, its own). */
const PRUNING = 7_283_155_020;

export async function up(db: Kysely<any>): Promise<void> {
  // A key's rows are read by (key, seq); the prune finds the oldest by a BRIN index, a few pages that a write rarely
  // touches, rather than a second B-tree that every write would grow.
  await sql`create table keyword_changes (
    seq bigint generated always as identity,
    api_key_id text not null,
    memory_pk bigint not null
  )`.execute(db);
  await sql`create index keyword_changes_by_key on keyword_changes (api_key_id, seq)`.execute(db);
  await sql`create index keyword_changes_by_seq on keyword_changes using brin (seq)`.execute(db);
  // As for every key column: no sampled API keys in pg_statistic.
  await sql`alter table keyword_changes alter column api_key_id set statistics 0`.execute(db);
  await sql`create table keyword_changes_pruned (api_key_id text primary key, upto bigint not null)`.execute(db);
  await sql`alter table keyword_changes_pruned alter column api_key_id set statistics 0`.execute(db);
  await sql`create table keyword_changes_forgets (forgets bigint not null)`.execute(db);
  await sql`insert into keyword_changes_forgets (forgets) values (0)`.execute(db);

  // The keys' locks in one order, so that two statements writing the same keys never wait for each other in a cycle.
  const record = (rows: string) => `
    perform pg_advisory_xact_lock(t) from (select distinct memory_postings_tenant(api_key_id) as t from ${rows} as r order by 1) as k;
    insert into keyword_changes (api_key_id, memory_pk) select api_key_id, pk from ${rows} as r order by pk;
    get diagnostics n = row_count;
    if n > 0 then head := currval('keyword_changes_seq_seq'); end if;
    if head / 1000 > (head - n) / 1000 and pg_try_advisory_xact_lock(${PRUNING}) then
      with gone as (delete from keyword_changes where seq <= head - 100000 returning api_key_id, seq)
      insert into keyword_changes_pruned (api_key_id, upto) select api_key_id, max(seq) from gone group by 1 order by 1
        on conflict (api_key_id) do update set upto = greatest(keyword_changes_pruned.upto, excluded.upto);
    end if;`;
  const trigger = async (name: string, event: string, forEach: string, body: string, when?: string) => {
    await sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$
      declare head bigint; n bigint;
      begin ${sql.raw(body)} return null; end $$`.execute(db);
    await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on memories ${sql.raw(forEach)}
      ${sql.raw(when ? `when (${when})` : '')} execute function ${sql.raw(name)}()`.execute(db);
  };
  await trigger('keyword_changes_insert', 'insert', 'referencing new table as changed for each statement', record('changed'));
  await trigger('keyword_changes_delete', 'delete', 'referencing old table as changed for each statement', record('changed'));
  await trigger(
    'keyword_changes_update',
    'update of content, key, api_key_id',
    'for each row',
    record('(select old.pk, old.api_key_id where old.api_key_id is distinct from new.api_key_id union all select new.pk, new.api_key_id)'),
    'old.content is distinct from new.content or old.key is distinct from new.key or old.api_key_id is distinct from new.api_key_id',
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const event of ['insert', 'delete', 'update']) {
    await sql`drop trigger ${sql.raw(`keyword_changes_${event}`)} on memories`.execute(db);
    await sql`drop function ${sql.raw(`keyword_changes_${event}`)}()`.execute(db);
  }
  await sql`drop table keyword_changes_forgets`.execute(db);
  await sql`drop table keyword_changes_pruned`.execute(db);
  await sql`drop table keyword_changes`.execute(db);
}
