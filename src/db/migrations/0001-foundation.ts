import type { Kysely } from 'kysely';

/** Creators, keys, guides and their prices and purchases. Times are ms in bigint columns. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('creators')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('real_name', 'text')
    .addColumn('bio', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('socials', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('agreement_accepted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('publish', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('owner'))
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_creator').on('api_keys').column('creator_id').execute();

  await db.schema
    .createTable('guides')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('headline', 'text')
    .addColumn('purchase_button_text', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('visible_on_store', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('store_review_status', 'text')
    .addColumn('store_review_note', 'text')
    .addColumn('store_tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('country', 'text')
    .addColumn('reviews_shown', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('buyer_count_shown', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('one_time_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('subscription_included', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pricing_currency', 'text', (c) => c.notNull().defaultTo('usd'))
    .addColumn('original_language', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('region', 'text')
    .addColumn('map_style', 'text')
    .addColumn('property_schema_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('thumbnail_media_id', 'text')
    .addColumn('thumbnail_url', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('published_at', 'bigint')
    .addColumn('last_api_write_at', 'bigint')
    .addUniqueConstraint('guides_creator_slug', ['creator_id', 'slug'])
    .execute();

  await db.schema
    .createTable('guide_prices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('guide_prices_guide').on('guide_prices').columns(['guide_id', 'created_at']).execute();

  await db.schema
    .createTable('purchases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('purchases_guide').on('purchases').column('guide_id').execute();
}
