import { sql } from 'kysely';

/**
 * The upsert's metadata on a clash of (api key, key), in PostgreSQL: jsonb's `||` of two objects is the same shallow
 * merge (the new object's top-level keys replace the stored ones). Stored back as text, as jsonb prints it.
 */
export const mergedMetadata = sql<string>`(memories.metadata::jsonb || excluded.metadata::jsonb)::text`;
