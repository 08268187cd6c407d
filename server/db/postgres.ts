// The CLI still reaches the PostgreSQL opener here; every other module reaches both openers through open.ts.
export { openPostgres } from './postgres/open.ts';
