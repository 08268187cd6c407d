import Database from 'better-sqlite3';
import { badInput } from '../../errors.ts';
import { MEMORY_TYPES, type MemoryType } from '../../memory/memory.ts';
import { type SourceReader, type SourceRow, sourceObject, sourceTime } from '../sourceRows.ts';

/**
 * The memory database of OmniRoute, the gateway mnemo's design descends from: its SQLite file's `memories` table,
 * one row per memory (id, api_key_id, session_id, type, key, content, metadata as JSON text, created_at, updated_at,
 * expires_at as ISO text), as its memory store (src/lib/memory/store.ts) writes them. Its columns map one to one; its
 * row id is kept in metadata, and a row without a key is keyed by its content, as mnemo keys its own.
 */
const COLUMNS = ['id', 'api_key_id', 'session_id', 'type', 'key', 'content', 'metadata', 'created_at', 'expires_at'] as const;

interface OmniRouteRow {
  id: unknown;
  api_key_id: unknown;
  session_id: unknown;
  type: unknown;
  key: unknown;
  content: unknown;
  metadata: unknown;
  created_at: unknown;
  expires_at: unknown;
}

export const readOmniRoute: SourceReader = async function* (file) {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw badInput(`${file} is not a SQLite database that can be read: ${(error as Error).message}`);
  }
  try {
    const columns = new Set((db.prepare("select name from pragma_table_info('memories')").all() as { name: string }[]).map((c) => c.name));
    const missing = COLUMNS.filter((c) => !columns.has(c));
    if (missing.length > 0) throw badInput(`${file} has no OmniRoute memories table (missing ${missing.join(', ')})`);
    const rows = db.prepare(`select ${COLUMNS.join(', ')} from memories order by rowid`).iterate() as IterableIterator<OmniRouteRow>;
    for (const row of rows) yield toRow(row);
  } catch (error) {
    // A file that is not a database at all fails at its first read, not at open.
    if ((error as { code?: string }).code === 'SQLITE_NOTADB') throw badInput(`${file} is not a SQLite database`);
    throw error;
  } finally {
    db.close();
  }
};

function toRow(r: OmniRouteRow): SourceRow {
  const at = `row ${String(r.id)}`;
  const type = typeof r.type === 'string' ? r.type.toLowerCase() : '';
  if (!MEMORY_TYPES.includes(type as MemoryType))
    return { at, problem: `type ${JSON.stringify(r.type)} is not one of ${MEMORY_TYPES.join(', ')}` };
  const metadata = sourceObject(r.metadata, 'metadata');
  const createdAt = sourceTime(r.created_at, 'created_at');
  const expiresAt = sourceTime(r.expires_at, 'expires_at');
  if (!metadata.ok) return { at, problem: metadata.problem };
  if (!createdAt.ok) return { at, problem: createdAt.problem };
  if (!expiresAt.ok) return { at, problem: expiresAt.problem };
  return {
    at,
    input: {
      apiKeyId: r.api_key_id as string,
      sessionId: typeof r.session_id === 'string' && r.session_id !== '' ? r.session_id : null,
      type: type as MemoryType,
      key: typeof r.key === 'string' && r.key !== '' ? r.key : null,
      content: r.content as string,
      metadata: { ...metadata.object, importedFrom: { system: 'omniroute', id: String(r.id) } },
      createdAt: createdAt.date,
      expiresAt: expiresAt.date,
    },
  };
}
