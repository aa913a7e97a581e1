import { notFound } from '../../core/errors.ts';
import type { GuideAccess } from '../../core/guide-access.ts';
import { updateGuideRow } from './guide-row.ts';

/**
 * The core's way to a caller's guide. A write's UPDATE takes the row lock on PostgreSQL (where
 * READ COMMITTED would otherwise let two creates of one guide both pass a check-then-insert); the
 * embedded store begins every write transaction IMMEDIATE, which serializes writers already.
 */
export const guideAccess: GuideAccess = {
  async open(db, creatorId, productId, changedAt, change) {
    const row =
      changedAt === undefined
        ? await db
            .selectFrom('guides')
            .select(['id', 'creator_id', 'slug', 'name'])
            .where('id', '=', productId)
            .where('creator_id', '=', creatorId)
            .executeTakeFirst()
        : await updateGuideRow(db, productId, () => ({ updated_at: changedAt, last_api_write_at: changedAt }))
            .where('creator_id', '=', creatorId)
            .returning(['id', 'creator_id', 'slug', 'name', 'revision'])
            .executeTakeFirst();
    if (!row) throw notFound('guide', productId);
    const guide = { id: row.id, creatorId: row.creator_id, slug: row.slug, name: row.name };
    if (!('revision' in row)) return guide;
    const stamped = { ...guide, revision: Number(row.revision) };
    change?.opened(stamped);
    return stamped;
  },
};
