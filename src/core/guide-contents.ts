import type { Stores } from './stores.ts';

/**
 * The parts of a guide as it stands, by name: its record, its spots, its photos… Each resource
 * that holds a part of a guide merges it in from its `index.ts`
 * (`declare module '…/core/guide-contents.ts' { interface GuideParts { spots: OwnedSpot[] } }`)
 * and says how to read it (`Resource.guideParts`), as it merges its store into `Stores`: the
 * readers of a whole guide (readiness, publish status, the link report, the preview) name the
 * parts they need and read no resource's store themselves.
 */
// biome-ignore lint/suspicious/noEmptyInterface: resources merge their parts into it
export interface GuideParts {}

export type GuidePartName = keyof GuideParts;

/** The guide a reading is of: its id and its creator's (the creator's profile is a part too). */
export interface GuideRef {
  id: string;
  creatorId: string;
}

/** How each part is read: one read of its resource's store, whole, in the guide's order. */
export type GuidePartReaders = {
  readonly [K in GuidePartName]: (stores: Stores, guide: GuideRef) => Promise<GuideParts[K]>;
};

/**
 * Reads parts of one guide side by side, each with its resource's reader, on the call's stores
 * (inside a write, its transaction). One reader serves every whole-guide read, so a part is read
 * the same way wherever it is needed.
 */
export class GuideContentsReader {
  private readonly stores: Stores;
  private readonly readers: Partial<GuidePartReaders>;

  constructor(stores: Stores, readers: Partial<GuidePartReaders>) {
    this.stores = stores;
    this.readers = readers;
  }

  async read<K extends GuidePartName>(guide: GuideRef, names: readonly K[]): Promise<Pick<GuideParts, K>> {
    const values = await Promise.all(names.map((name) => this.readerOf(name)(this.stores, guide)));
    return Object.fromEntries(names.map((name, i) => [name, values[i]])) as unknown as Pick<GuideParts, K>;
  }

  private readerOf<K extends GuidePartName>(name: K): GuidePartReaders[K] {
    const reader = this.readers[name];
    if (!reader) throw new Error(`no resource declares how to read the guide part ${String(name)}`);
    return reader as GuidePartReaders[K];
  }
}

declare module './stores.ts' {
  interface Stores {
    /** The parts of a whole guide, each read by the resource that holds it (see GuideParts). */
    guideContents: GuideContentsReader;
  }
}
