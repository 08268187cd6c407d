import { sql } from 'kysely';

/** A standing fact (PROFILE_CATEGORIES): the predicate of the partial index memories_profile, word for word, so SQLite uses it. */
export const isProfileMemory = sql<boolean>`json_extract(metadata, '$.category') in ('preference', 'habit', 'identity', 'decision')`;
