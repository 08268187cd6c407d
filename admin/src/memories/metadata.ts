export type MetadataCheck = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** The metadata textarea's text as the JSON object the server accepts; an empty field means {}. */
export function parseMetadata(text: string): MetadataCheck {
  if (text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `Not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    return { ok: false, error: `Metadata must be a JSON object like {"source": "chat"}, not ${kind}.` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

export const metadataText = (m: Record<string, unknown>) => (Object.keys(m).length === 0 ? '{}' : JSON.stringify(m, null, 2));
