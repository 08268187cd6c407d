import * as postgres from './json.postgres.ts';
import * as sqlite from './json.sqlite.ts';
import type { Db } from './open.ts';
import { storeKind } from './store.ts';

/** Reading JSON stored as text (metadata): the functions of the store `db` talks to. */
export const json = (db: Db) => ({ sqlite, postgres })[storeKind(db)];
