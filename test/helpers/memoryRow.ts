/**
 * A memories row as a migration test writes it straight to the table, below the services, with the columns every
 * schema version has: number `i` (0 to 99) of a key, with the columns given. Its timestamps are `i` ms after 1970,
 * outside any retention: a row that retrieval must find takes `recently(i)`.
 */
export function memoryRow(apiKeyId: string, i: number, over: Record<string, unknown> = {}) {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    api_key_id: apiKeyId,
    type: 'factual',
    key: `k${i}`,
    content: `note ${i}`,
    metadata: '{}',
    tokens: 2,
    created_at: i,
    updated_at: i,
    ...over,
  };
}

/** Timestamps `i` ms before now. */
export function recently(i: number) {
  return { created_at: Date.now() - i, updated_at: Date.now() - i };
}
