// A worker thread, in plain JavaScript so that it runs as it is under tsx, vitest and node alike: it copies
// the database with VACUUM INTO on a connection of its own (a consistent snapshot of one read transaction,
// which never blocks the server's writers nor its event loop), then checks the copy.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

const { source, target } = workerData;
const db = new SQLite(source, { fileMustExist: true });
try {
  db.pragma('busy_timeout = 5000');
  db.prepare('VACUUM INTO ?').run(target);
} finally {
  db.close();
}
const copy = new SQLite(target, { fileMustExist: true });
try {
  sqliteVec.load(copy);
  const problems = copy.pragma('integrity_check').map((row) => row.integrity_check);
  const migrations = copy.prepare('select name from kysely_migration order by name').pluck().all();
  parentPort.postMessage({ integrity: problems, migrations });
} finally {
  copy.close();
}
