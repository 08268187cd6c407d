import { LRUCache } from 'lru-cache';
import { KeyPostings } from './keyPostings.ts';
import type { Db } from './open.ts';

/**
 * How much of the keyword index a process holds in memory as keys' postings (keyPostings.ts), on either store
 * (sqlite/keywordIndex.ts, postgres/keywordIndex.ts).
 */
export const POSTINGS_POLICY = {
  /** Keys this small are built before the search that asked for them (tens of ms); larger ones behind it. */
  builtInline: 1_000,
  /** More changes than this since a key was last searched are caught up by building its postings anew. */
  mostChangesApplied: 2_000,
  /**
   * Postings held by one process across keys: about 110 MB (a key of 100,000 memories holds 1.6 million in about 90
   * MB). A key beyond it is always ranked by the store's own statement.
   */
  budget: 2_000_000,
} as const;

/** A key's postings as a process holds them, and what its store's index follows of the change feed for them (`feed`). */
export interface HeldKey<Feed> {
  postings: KeyPostings;
  feed: Feed;
  /** Until built: the build (false if it failed), which a search waits for when the key is small. */
  building: Promise<boolean> | null;
  small: Promise<boolean>;
}

/** What a store's index does for the keys it holds. */
export interface HeldKeysStore<Feed> {
  /** What it follows of the feed for a key not yet read. */
  feed(): Feed;
  /** The key's memories in the keyword index. */
  memories(db: Db, apiKeyId: string): Promise<number>;
  /** Reads the key's postings into `held.postings`, with what the feed needs to follow them from there. */
  build(db: Db, apiKeyId: string, held: HeldKey<Feed>): Promise<void>;
}

/**
 * The keys whose postings a process holds: a key's are built at its first search (a small key's before it, a large
 * key's behind it, while the store's statement answers), within one budget of postings across keys, the least
 * recently searched key dropped first; a key whose postings alone outgrow the budget is left to the statement.
 */
export class HeldKeys<Feed> {
  private readonly keys = new LRUCache<string, HeldKey<Feed>>({
    maxSize: POSTINGS_POLICY.budget,
    sizeCalculation: (held) => held.postings.postings + 1,
  });
  /** Keys whose postings alone outgrow the budget: building them again would be thrown away again. */
  private readonly tooLarge = new LRUCache<string, true>({ max: 1_000 });

  constructor(private readonly store: HeldKeysStore<Feed>) {}

  /** The key's postings once built (a small key's build waited for); null while a large key's are built, or never. */
  async ready(db: Db, apiKeyId: string): Promise<HeldKey<Feed> | null> {
    if (this.tooLarge.has(apiKeyId)) return null;
    const held = this.keys.get(apiKeyId) ?? this.start(db, apiKeyId);
    const building = held.building;
    if (building && (!(await held.small) || !(await building))) return null;
    return held;
  }

  /** The key's postings if held, without counting as a search. */
  peek(apiKeyId: string): HeldKey<Feed> | undefined {
    return this.keys.peek(apiKeyId);
  }

  /** Drops the key's postings, if these are still the ones held: the next search builds them anew. */
  drop(apiKeyId: string, held: HeldKey<Feed>): void {
    if (this.keys.peek(apiKeyId) === held) this.keys.delete(apiKeyId);
  }

  /** Drops every key's postings. */
  clear(): void {
    this.keys.clear();
  }

  private start(db: Db, apiKeyId: string): HeldKey<Feed> {
    const held: HeldKey<Feed> = {
      postings: new KeyPostings(),
      feed: this.store.feed(),
      building: null,
      small: this.store.memories(db, apiKeyId).then(
        (n) => n < POSTINGS_POLICY.builtInline,
        () => false,
      ),
    };
    this.keys.set(apiKeyId, held);
    held.building = this.store.build(db, apiKeyId, held).then(
      () => {
        held.building = null;
        if (this.keys.peek(apiKeyId) !== held) return true;
        // Measured again now that it holds its postings; a key beyond the budget is left to the statement from now on.
        this.keys.set(apiKeyId, held);
        if (this.keys.peek(apiKeyId) !== held) this.tooLarge.set(apiKeyId, true);
        return true;
      },
      () => {
        // The statement answers meanwhile; the next search starts again (a closed database, a lost connection).
        this.drop(apiKeyId, held);
        return false;
      },
    );
    return held;
  }
}
