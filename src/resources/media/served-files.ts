import { type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import { directReaders } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
import type { Database } from '../../db/tables.ts';
import { RENDITIONS, type RenditionName } from './image-pipeline.ts';

/**
 * The blob key of one rendition's file in a media row's `files`: the expression migration 0032
 * indexes, written here once so that the lookup below and the index can never differ (an index is
 * used only for the very expression it holds).
 */
export function fileKeyExpression(postgres: boolean, rendition: RenditionName): RawBuilder<string> {
  return postgres
    ? sql.raw(`(files::jsonb #>> '{${rendition},key}')`)
    : sql.raw(`json_extract(files, '$.${rendition}.key')`);
}

export function isPostgres(db: { getExecutor(): { adapter: unknown } }): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Whether a file is one `/media` serves: a photo or stored image of a working copy names it, a
 * guide's thumbnail is it, or the live release of a guide (its newest) names it. Each part is an
 * indexed lookup (migration 0032, release_files_by_key, releases_guide_number); a preview shows
 * the working copy, so its files are among those. Parameters: the key once per rendition, the
 * served path, the key.
 */
export function servedFileQuery(db: Kysely<Database>) {
  const postgres = isPostgres(db);
  return db.selectNoFrom((eb) =>
    eb
      .or([
        eb.exists(
          eb
            .selectFrom('media')
            .select('media.id')
            .where((m) => m.or(RENDITIONS.map((name) => m(fileKeyExpression(postgres, name), '=', '')))),
        ),
        eb.exists(eb.selectFrom('guides').select('guides.id').where('guides.thumbnail_url', '=', '')),
        eb.exists(
          eb
            .selectFrom('release_files')
            .innerJoin('releases', 'releases.id', 'release_files.release_id')
            .select('release_files.blob_key')
            .where('release_files.blob_key', '=', '')
            .where('releases.number', '=', (r) =>
              r
                .selectFrom('releases as newer')
                .select((n) => n.fn.max('newer.number').as('n'))
                .whereRef('newer.guide_id', '=', 'releases.guide_id'),
            ),
        ),
      ])
      .as('served'),
  );
}

const servedQuery = prepared<{ served: number | boolean }>('a file /media serves', servedFileQuery);

export async function isServedFile(db: Kysely<Database>, key: string, path: string): Promise<boolean> {
  const [row] = await servedQuery(db, ...RENDITIONS.map(() => key), path, key);
  return row !== undefined && Boolean(Number(row.served));
}

/**
 * What `isServedFile` answered per file, while the embedded store commits nothing (the WAL-index
 * stamp, as the buyers' page address does): a buyers' page asks for a dozen files at once and again
 * on every visit, and an answer holds exactly until a commit could change it (a publish, a delete,
 * an undo). On PostgreSQL every request asks (another instance may have committed): one indexed
 * query. Nothing here expires by time: a preview link's files are the working copy's.
 */
export class ServedFileCache {
  private readonly answered = new Map<string, boolean>();
  private stamp: string | undefined;

  async isServed(db: Kysely<Database>, key: string, path: string): Promise<boolean> {
    // Taken before the query, so that a commit landing in between moves the stamp for next time.
    const stamp = directReaders.get(db)?.commitStamp();
    if (stamp === undefined) return isServedFile(db, key, path);
    if (stamp !== this.stamp) {
      this.answered.clear();
      this.stamp = stamp;
    }
    const known = this.answered.get(path);
    if (known !== undefined) return known;
    const served = await isServedFile(db, key, path);
    // Bounded: a flood of made-up names cannot grow it past one page's worth of thousands.
    if (this.stamp === stamp && this.answered.size < 10_000) this.answered.set(path, served);
    return served;
  }
}
