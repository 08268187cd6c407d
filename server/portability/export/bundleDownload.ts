import type { IncomingMessage, ServerResponse } from 'node:http';
import { recordAudit } from '../../audit/audit.service.ts';
import { auditActor } from '../../audit/audited.ts';
import { bearerToken, unauthenticatedMessage } from '../../auth/accessToken.service.ts';
import type { RequestScope } from '../../requestScope.ts';
import type { Services } from '../../services.ts';
import { apiKeyIdSchema } from '../../validation.ts';
import { prepareBundle } from './writeBundle.ts';

/** Where Memory Studio downloads the export bundle: GET, with an admin's bearer token, and `?apiKeyId=K` for one key. */
export const BUNDLE_PATH = '/export/bundle.jsonl';

/**
 * The export bundle over HTTP, for Memory Studio's Data tab: the same bytes `mnemo export` writes (writeBundle.ts),
 * sent as a download rather than as GraphQL. A GraphQL answer is one JSON document, held whole on both sides, and
 * pages of it would each need the header that only the whole body gives (its counts and checksum); a download
 * streams the one bundle with its length known, so the Studio's progress bar counts real bytes. Admins only, as
 * exportMemories across keys is; recorded in the audit log as MEMORIES_EXPORT.
 */
export async function sendBundle(services: Services, req: IncomingMessage, res: ServerResponse, url: URL, scope: RequestScope) {
  try {
    await send(services, req, res, url, scope);
  } catch (error) {
    scope.log.warn({ err: error }, 'the export bundle was not sent whole');
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: 'the export failed; the server log says why' }));
    } else res.destroy();
  }
}

async function send(services: Services, req: IncomingMessage, res: ServerResponse, url: URL, scope: RequestScope) {
  const refuse = (status: number, message: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify({ error: message }));
  };
  if (req.method !== 'GET') return refuse(405, 'the export bundle is downloaded with GET', { allow: 'GET' });
  const token = bearerToken(req.headers.authorization);
  const viewer = token ? await services.tokens.authenticate(token) : null;
  if (!viewer) return refuse(401, unauthenticatedMessage(token), { 'www-authenticate': 'Bearer' });
  if (viewer.role !== 'admin') return refuse(403, 'only an admin token may download the export bundle');
  const named = url.searchParams.get('apiKeyId');
  const checked = named === null ? null : apiKeyIdSchema.safeParse(named);
  if (checked && !checked.success) return refuse(400, checked.error.issues[0]?.message ?? 'apiKeyId is not an API key id');
  const apiKeyId = checked?.data ?? null;
  await services.access.flush();
  const bundle = await prepareBundle(services.db, { apiKeyId, now: services.now() });
  try {
    // On record before a byte is sent: the client has the bundle as soon as its last byte arrives, before res.end().
    await recordAudit(services, {
      actor: await auditActor({ viewer, services, requestId: scope.id, log: scope.log }),
      action: 'MEMORIES_EXPORT',
      requestId: scope.id,
      apiKeyId,
      target: { ...bundle.header.counts },
    });
    const day = bundle.header.exportedAt.slice(0, 10);
    res.writeHead(200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-length': String(bundle.bytes),
      'content-disposition': `attachment; filename="mnemo-export-${apiKeyId === null ? 'all' : 'key'}-${day}.jsonl"`,
      'cache-control': 'no-store',
    });
    // A download the browser gave up on is not waited for: its response never drains.
    await bundle.writeTo({
      write: (chunk) => {
        if (res.destroyed) throw new Error('the download was closed before the bundle was sent');
        return res.write(chunk);
      },
      once: (_event, resume) => {
        res.once('drain', resume);
        res.once('close', resume);
      },
    });
    res.end();
  } finally {
    await bundle.dispose();
  }
}
