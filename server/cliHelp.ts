/** `mnemo --help`, also printed when no command is given. */
export const HELP = `mnemo: long-term memory server for LLM gateways

Usage:
  mnemo serve [--port N] [--host H] [--data-dir DIR]   serve GraphQL at /graphql and the admin app at /admin/
  mnemo migrate [--data-dir DIR]                       apply pending database migrations (creating the database
                                                       when there is none) and exit
  mnemo token create --name NAME [--api-key ID [--may-forget-key]] [--admin] [--create] [--data-dir DIR]
                                                       mint an access token (printed once); --may-forget-key lets
                                                       the bound token erase its key (forgetApiKey)
  mnemo token list [--data-dir DIR]                    list access tokens (never their secrets)
  mnemo token revoke ID [--data-dir DIR]               revoke an access token
  mnemo reindex [--force] [--data-dir DIR]             embed memories whose vector is missing or stale (all with
                                                       --force), with a progress line; joins a running job
  mnemo purge [--data-dir DIR]                         delete the memories expired or out of retention for longer
                                                       than purgeGraceDays now, with a progress line (the server
                                                       does it at start and hourly); the server may keep running
  mnemo backup FILE [--data-dir DIR]                  an online, verified copy of the whole database into FILE
                                                       (a new file), with a progress line; the server may keep running
                                                       (SQLite only: back PostgreSQL up with pg_dump)
  mnemo restore FILE [--data-dir DIR]                 replace the database by a backup, with the server stopped; the
                                                       replaced one is kept as mnemo.db.before-restore (.2, .3…)
  mnemo copy-store --from DIR --to postgres://…        copy everything in the data folder's SQLite database into an
                                                       empty PostgreSQL database, with a progress line, the server
                                                       stopped; run it again to continue an interrupted copy. Ends
                                                       with each table's counts (exit 1 if they differ). Vectors are
                                                       not copied: mnemo reindex rebuilds them into Qdrant
  mnemo import --from FORMAT FILE [--dry-run] [--api-key K] [--key-from F] [--session-from F] [--data-dir DIR]
                                                       import another memory system's memories, with a progress line;
                                                       FORMAT: omniroute (its SQLite file), mem0 (its get_all JSON;
                                                       --key-from/--session-from: user_id, agent_id or run_id), letta
                                                       (an agent file; --api-key, else each agent's name), jsonl
                                                       (mnemo's lines) or csv (a header row of mnemo's fields). Again with the same file updates, never
                                                       duplicates; --dry-run writes nothing; the server may keep running
  mnemo export [--api-key K] [--out FILE] [--data-dir DIR]
                                                       every memory (of key K) with its versions, validity and
                                                       supersession, and the tombstones of deleted ones, as mnemo's
                                                       JSON lines with a checksummed header, to FILE or standard
                                                       output, with a progress line; mnemo import --from jsonl reads it
  mnemo mcp                                            MCP over stdio, for clients that launch a process: relays
                                                       to the running mnemo at MNEMO_URL with MNEMO_TOKEN
  mnemo audit export [--since T] [--until T] [--action A] [--actor ID] [--api-key K] [--data-dir DIR]
                                                       the audit log as JSON lines, oldest first (T: ISO 8601)
  mnemo --help

Every command names the database it used. Only serve and migrate create a SQLite database where there is none;
token, reindex, purge, import and audit refuse (exit 66) unless given --create, as run from the wrong folder they would
start an empty one there.

Environment (flags win):
  MNEMO_DATA_DIR     data folder holding mnemo.db (default ./data)
  MNEMO_DATABASE_URL postgres://user:password@host:port/db: keep the data in PostgreSQL instead (or --database-url);
                     any number of mnemo serve processes may share it
  MNEMO_DATABASE_POOL_SIZE  connections to PostgreSQL per process (default 10)
  MNEMO_HOST         address to listen on (default 127.0.0.1)
  MNEMO_PORT         port to listen on (default 4000)
  MNEMO_WORKERS      processes serving requests, 1 to 64 (default 1; docs/scaling.md)
  MNEMO_ADMIN_TOKEN  admin bearer token; when unset, the first start mints one and prints it once
  MNEMO_LOG_LEVEL    trace, debug, info (default), warn, error
  MNEMO_METRICS_PORT   serve /metrics (Prometheus) on this port of the same host, and nothing else there
  MNEMO_METRICS_TOKEN  serve /metrics on the main port to requests bearing this token (16+ characters)
  MNEMO_SHUTDOWN_TIMEOUT_MS  how long a shutdown waits for requests in flight (default 10000)
  MNEMO_BACKUP_DIR   where the backupDatabase mutation writes (default: backups/ in the data folder)
  MNEMO_URL          mnemo mcp: the running server (default http://127.0.0.1:4000)
  MNEMO_TOKEN        mnemo mcp: the access token it sends
  MNEMO_TRUSTED_DOCUMENTS  run only the operations of this manifest (a file or folder; the package ships
                     dist/trusted-documents.json with Memory Studio's and @mnemo/client's operations)
  MNEMO_TRUSTED_DOCUMENTS_ALLOW_ADMIN  true: admin tokens may still send any document

Run it as: mnemo <command>  (in a checkout, npx tsx server/main.ts <command> runs it from source)
`;
