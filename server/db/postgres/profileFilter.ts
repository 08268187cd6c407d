import { sql } from 'kysely';

/** A standing fact (PROFILE_CATEGORIES): the predicate of the partial index memories_profile, so PostgreSQL uses it. */
export const isProfileMemory = sql<boolean>`(metadata::jsonb ->> 'category') in ('preference', 'habit', 'identity', 'decision')`;
