import type { StoreKind } from '../generated/graphql';

/** A store's name on screen; typed over the schema's enum, so a new store cannot be missed. */
export const STORE_NAME: Record<StoreKind, string> = { SQLITE: 'SQLite', POSTGRES: 'PostgreSQL' };
