import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.ts';
import './scalars.ts';
import './memory.schema.ts';
import './history.schema.ts';
import './forget.schema.ts';
import './settings.schema.ts';
import './accessToken.schema.ts';
import './retrieval.schema.ts';
import './gateway.schema.ts';
import './receipt.schema.ts';
import './injectionLog.schema.ts';
import './summary.schema.ts';
import './supersession.schema.ts';
import './health.schema.ts';
import './qdrant.schema.ts';
import './engineStatus.schema.ts';
import './provider.schema.ts';
import './modelTest.schema.ts';
import './reindex.schema.ts';
import './backup.schema.ts';
import './audit.schema.ts';
import './fileImport.schema.ts';
import './evaluation.schema.ts';

export const schema = builder.toSchema();

/** The SDL committed as schema.graphql: sorted, so the file changes only when the schema does. */
export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
