import { ApiError, refuse } from '../../../core/errors.ts';
import type { OperationContext } from '../../../core/operation.ts';
import { storeUnavailable } from '../../../db/unavailable.ts';
import type { ArchiveRecords } from './archive-format.ts';
import { rewired } from './record-ids.ts';

/**
 * Writes an archive's records as a new guide of the caller, inside the call's transaction, through
 * each resource's own store. Every record gets a new id; each is rewired (every id it names, through
 * `ids`) just before it is written, in an order where what it names is written first; what may
 * name a later record of its own kind (a place inside a place, a chapter naming a chapter) is
 * written again once all of its kind are. Spot keys stay as they were: a spot key is the guide's
 * own name for a spot, not an id. `ids` starts with the photo files' new blob keys.
 */
export class GuideImport {
  private readonly ctx: OperationContext;
  private readonly records: ArchiveRecords;
  private readonly ids: Map<string, string>;
  private readonly spotIdOfKey = new Map<string, string>();
  private readonly creatorId: string;
  private guideId = '';

  /** Each written file's size by its new key: a stored image's row keeps its original's. */
  private readonly sizes: ReadonlyMap<string, number>;

  constructor(
    ctx: OperationContext,
    records: ArchiveRecords,
    blobKeys: ReadonlyMap<string, string>,
    sizes: ReadonlyMap<string, number>,
  ) {
    this.ctx = ctx;
    this.sizes = sizes;
    this.records = records;
    this.ids = new Map(blobKeys);
    this.creatorId = ctx.principal.creatorId;
  }

  private rewired<T>(value: T): T {
    return rewired(value, this.ids);
  }

  private spotIds(keys: readonly string[]): string[] {
    return keys.map((key) => this.spotIdOfKey.get(key) as string);
  }

  /** The new guide's id, once every record is written. */
  async run(): Promise<string> {
    await this.stage('guide', () => this.guide());
    await this.stage('properties', () => this.properties());
    await this.stage('guide.areas', () => this.areas());
    await this.stage('spots', () => this.spots());
    await this.stage('photos', () => this.images());
    await this.stage('places', () => this.places());
    await this.stage('routesWithTracks', () => this.routes());
    await this.stage('chapters', () => this.chapters());
    await this.stage('itineraries', () => this.itineraries());
    await this.stage('salesPage', () => this.salesPage());
    return this.guideId;
  }

  /**
   * One part written. A record its store cannot take (a field missing or of the wrong kind, which
   * only an archive edited by hand holds) is the archive's fault: refused naming the part, and the
   * transaction rolls back; a database that is away stays a 503.
   */
  private async stage(part: string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (err) {
      if (err instanceof ApiError || storeUnavailable(err)) throw err;
      this.ctx.log.warn({ err, part }, 'import_guide: a record of the archive could not be written');
      throw refuse(
        `archive records.json ${part}`,
        'holds a record this service cannot write (a field missing or of the wrong kind). Nothing was imported.',
      );
    }
  }

  /** A draft, with a free slug of the caller's: nothing of its sale (price, store, status) comes along. */
  private async guide(): Promise<void> {
    const guides = this.ctx.stores.guides;
    const old = this.records.guide;
    await guides.lockCreatorsGuides(this.creatorId);
    const slug = await guides.freeSlug(this.creatorId, old.slug);
    this.guideId = await guides.create(this.creatorId, old.name, slug);
    this.ids.set(old.productId, this.guideId);
    await this.ctx.guide(this.guideId);
    await guides.update(this.guideId, {
      headline: old.headline,
      purchaseButtonText: old.purchaseButtonText,
      country: old.country,
      reviewsShown: old.reviewsShown,
      storeTags: old.storeTags,
      region: old.region,
    });
  }

  private async properties(): Promise<void> {
    const guides = this.ctx.stores.guides;
    const properties = this.ctx.stores.properties;
    for (const p of this.records.properties) {
      const fields = {
        key: p.key,
        label: p.label,
        kind: p.kind,
        required: p.required,
        filterable: p.filterable,
        placeholder: p.placeholder,
        numUnit: p.numUnit,
        options: p.options,
      };
      const id = await properties.create(this.guideId, fields, await guides.bumpPropertySchemaVersion(this.guideId));
      if (p.archived) {
        await properties.update(id, { archived: true }, await guides.bumpPropertySchemaVersion(this.guideId));
      }
      this.ids.set(p.propertyDefId, id);
    }
  }

  private async areas(): Promise<void> {
    for (const area of this.records.guide.areas) {
      const { id, ...fields } = this.rewired(area);
      this.ids.set(id, await this.ctx.stores.areas.insert(this.guideId, fields));
    }
  }

  private async spots(): Promise<void> {
    for (const spot of this.records.spots) {
      const { spotId, productId: _p, guideId: _g, order, createdAt: _c, updatedAt: _u, ...state } = this.rewired(spot);
      const id = await this.ctx.stores.spots.insert(this.guideId, state, order);
      this.ids.set(spotId, id);
      this.spotIdOfKey.set(state.spotKey, id);
    }
  }

  /** Stored images, then photos in their order, with their credits and licences (`meta`) as they were. */
  private async images(): Promise<void> {
    const media = this.ctx.stores.media;
    for (const image of this.records.storedImages) {
      const { storageId, width, height, files } = this.rewired(image);
      const id = await media.insertBlob(this.guideId, this.creatorId, {
        width,
        height,
        bytes: this.sizes.get(files.original.key) ?? 0,
        files,
      });
      this.ids.set(storageId, id);
    }
    const photos = this.records.photos.map((photo) => this.rewired(photo));
    const ids = await media.insertPhotos(
      this.guideId,
      this.creatorId,
      photos.map((p) => ({
        spotId: p.spotId,
        width: p.width,
        height: p.height,
        bytes: p.bytes,
        files: p.files,
        meta: p.meta,
      })),
    );
    for (const [i, photo] of photos.entries()) {
      const id = ids[i] as string;
      this.ids.set(this.records.photos[i]?.mediaId as string, id);
      // Appended photos are numbered 1, 2, 3…: a photo moved between two keeps its own key.
      if (photo.order !== i + 1) await media.setOrder({ ...photo, mediaId: id }, photo.order);
    }
  }

  /** Places, each after the place it sits inside. */
  private async places(): Promise<void> {
    let waiting = [...this.records.places];
    while (waiting.length > 0) {
      const ready = waiting.filter((p) => p.insideId === null || this.ids.has(p.insideId));
      // The archive's check found every insideId among its places: a loop of places is all that is left.
      if (ready.length === 0) throw refuse('archive records.json places', 'has places inside one another in a loop.');
      for (const place of ready) {
        const { facilityId, guideId: _g, createdAt: _c, updatedAt: _u, ...state } = this.rewired(place);
        const id = await this.ctx.stores.facilities.insert(this.guideId, state, this.spotIds(state.spotKeys));
        this.ids.set(facilityId, id);
      }
      waiting = waiting.filter((p) => !ready.includes(p));
    }
  }

  private async routes(): Promise<void> {
    const routes = this.ctx.stores.routes;
    for (const route of this.records.routesWithTracks) {
      const r = this.rewired(route);
      const id = await routes.insert(this.guideId, r.kind, { name: r.name, record: r.record, track: r.track ?? null });
      if (r.spotKeys.length > 0) await routes.setSpots(id, this.spotIds(r.spotKeys));
      if (r.facilities.length > 0) await routes.setFacilities(id, r.facilities);
      this.ids.set(route.id, id);
    }
  }

  /** Chapters in their order, then, with every chapter's new id known, their content again and their members. */
  private async chapters(): Promise<void> {
    const chapters = this.ctx.stores.chapters;
    const stateOf = (chapter: ArchiveRecords['chapters'][number]) => {
      const {
        id: _i,
        guideId: _g,
        order: _o,
        members: _m,
        createdAt: _c,
        updatedAt: _u,
        ...state
      } = this.rewired(chapter);
      return state;
    };
    for (const chapter of this.records.chapters) {
      this.ids.set(chapter.id, await chapters.insert(this.guideId, stateOf(chapter)));
    }
    for (const chapter of this.records.chapters) {
      const id = this.ids.get(chapter.id) as string;
      await chapters.write(id, stateOf(chapter));
      const members = this.rewired(chapter.members).map((m) =>
        m.spotKey !== null
          ? { spotId: this.spotIdOfKey.get(m.spotKey) as string }
          : { chapterId: m.memberCollectionId as string },
      );
      if (members.length > 0) await chapters.setMembers(id, members);
    }
  }

  private async itineraries(): Promise<void> {
    for (const itinerary of this.records.itineraries) {
      const { id, guideId: _g, order: _o, createdAt: _c, updatedAt: _u, ...state } = this.rewired(itinerary);
      this.ids.set(id, await this.ctx.stores.itineraries.insert(this.guideId, state));
    }
  }

  private async salesPage(): Promise<void> {
    if (this.records.salesPage === null) return;
    const { updatedAt: _u, ...content } = this.rewired(this.records.salesPage);
    await this.ctx.stores.salesPage.save(this.guideId, content);
  }
}
