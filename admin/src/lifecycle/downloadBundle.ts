import { reportReachable, ServerUnreachableError } from '../lib/connection';
import { getToken, setToken } from '../lib/session';

/** What the bundle's header says it holds (server/portability/export/bundleFormat.ts). */
export interface BundleHeader {
  format: 'mnemo-export';
  version: number;
  exportedAt: string;
  apiKeyId: string | null;
  counts: { memories: number; versions: number; tombstones: number };
  checksum: string;
}

export interface DownloadedBundle {
  header: BundleHeader;
  fileName: string;
  bytes: number;
  blob: Blob;
}

/** Bytes received of how many the server announced; null until the server has made the bundle and starts sending it. */
export type BundleProgress = { received: number; total: number } | null;

/**
 * Downloads the export bundle of one key (or of every key) from the server's download route, reporting the bytes as
 * they arrive, and reads back its header: the result line says what the file holds, not what was asked for.
 */
export async function downloadBundle(apiKeyId: string | null, onProgress: (p: BundleProgress) => void): Promise<DownloadedBundle> {
  const token = getToken();
  let res: Response;
  try {
    res = await fetch(`/export/bundle.jsonl${apiKeyId === null ? '' : `?apiKeyId=${encodeURIComponent(apiKeyId)}`}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  } catch (error) {
    reportReachable(false);
    throw new ServerUnreachableError(error);
  }
  reportReachable(true);
  if (!res.ok || !res.body) {
    const message = ((await res.json().catch(() => null)) as { error?: string } | null)?.error ?? `the server answered ${res.status}`;
    if (res.status === 401) setToken(null, message);
    throw new Error(message);
  }
  const total = Number(res.headers.get('content-length'));
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress({ received, total });
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress({ received, total });
  }
  if (received !== total) throw new Error(`the download stopped after ${received} of ${total} bytes`);
  const blob = new Blob(chunks as BlobPart[], { type: 'application/x-ndjson' });
  const firstLine = (await blob.slice(0, Math.min(blob.size, 4096)).text()).split('\n')[0] ?? '';
  const fileName = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'mnemo-export.jsonl';
  return { header: JSON.parse(firstLine) as BundleHeader, fileName, bytes: received, blob };
}
