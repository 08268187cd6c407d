import { vi } from 'vitest';
import type { Embedder } from '../../server/embedding/embedder.ts';
import type { TestApp } from './testApp.ts';

/** Embeddings still held when a test ends (it failed before letting them go). */
const held: (() => void)[] = [];

/** Lets every held embedding go; for an afterEach, so a failed test leaves no job waiting. */
export function releaseHeldEmbeddings(): void {
  for (const open of held.splice(0)) open();
}

/**
 * Holds every embedding call of the app's embedder until open() is called, so a job can be caught while it
 * runs without relying on timing. `reached` resolves once a call is waiting.
 */
export async function holdEmbeddings(target: TestApp) {
  const { embedder } = await target.services.vectors.embedding();
  if (!embedder) throw new Error('the app has no embedder');
  const embed = embedder.embed.bind(embedder);
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  held.push(open);
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  vi.spyOn(embedder as Embedder, 'embed').mockImplementation(async (texts) => {
    reach();
    await opened;
    return embed(texts);
  });
  return { open, reached };
}
