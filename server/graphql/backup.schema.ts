import { audited } from '../audit/audited.ts';
import { createBackup } from '../backup/backup.service.ts';
import { builder } from './builder.ts';

const BackupRef = builder.simpleObject('Backup', {
  description: 'A verified copy of the whole database (integrity_check passed before it was given its name).',
  fields: (t) => ({
    file: t.string({ description: 'Where the copy is, inside the configured backup folder.' }),
    bytes: t.float(),
    migration: t.string({ nullable: true, description: 'The schema level the copy has; a restore brings it back.' }),
    createdAt: t.field({ type: 'DateTime' }),
  }),
});

builder.mutationField('backupDatabase', (t) =>
  t.field({
    type: BackupRef,
    authScopes: { admin: true },
    description: 'An online backup into the backup folder (MNEMO_BACKUP_DIR); the server keeps serving meanwhile.',
    resolve: (_root, _args, ctx) =>
      audited(
        ctx,
        { action: 'DATABASE_BACKUP', describe: (b) => ({ target: { file: b.file, bytes: b.bytes, migration: b.migration } }) },
        () => createBackup(ctx.services),
      ),
  }),
);
