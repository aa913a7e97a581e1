import {
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

/** Kysely's own bookkeeping tables, left out of a listing unless asked for. */
const MIGRATION_TABLES = ['kysely_migration', 'kysely_migration_lock'];

interface ColumnRow {
  column: string;
  not_null: boolean;
  has_default: boolean;
  table: string;
  table_type: string;
  schema: string;
  type: string;
  type_schema: string;
  auto_incrementing: boolean;
  column_description: string | null;
}

/**
 * PostgreSQL as Kysely speaks it, but looking only at the schema the store writes to. Kysely's
 * introspector (which its migrator asks whether its tables exist, at every start and readiness
 * check) lists every column of every schema in the database and calls pg_get_serial_sequence on
 * each: that function reads the live catalog, not the query's snapshot, so a column renamed in
 * another schema between the two (another store migrating beside this one, as parallel test files
 * do) failed this store's check with "column does not exist".
 */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

class CurrentSchemaIntrospector implements DatabaseIntrospector {
  private readonly db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.db = db;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return rows.map(({ name }) => ({ name }));
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const skipped = options.withInternalKyselyTables ? [] : MIGRATION_TABLES;
    // A column counts as auto-incrementing when a sequence depends on it (serial or identity),
    // read from pg_depend within the snapshot rather than through pg_get_serial_sequence.
    const { rows } = await sql<ColumnRow>`
      select a.attname as column, a.attnotnull as not_null, a.atthasdef as has_default,
        c.relname as table, c.relkind as table_type, ns.nspname as schema,
        typ.typname as type, dtns.nspname as type_schema,
        col_description(a.attrelid, a.attnum) as column_description,
        exists (
          select 1 from pg_catalog.pg_depend dep join pg_catalog.pg_class seq on seq.oid = dep.objid
          where dep.refclassid = 'pg_catalog.pg_class'::regclass and dep.refobjid = c.oid
            and dep.refobjsubid = a.attnum and dep.classid = 'pg_catalog.pg_class'::regclass and seq.relkind = 'S'
        ) as auto_incrementing
      from pg_catalog.pg_attribute a
      join pg_catalog.pg_class c on a.attrelid = c.oid
      join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
      join pg_catalog.pg_type typ on a.atttypid = typ.oid
      join pg_catalog.pg_namespace dtns on typ.typnamespace = dtns.oid
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p', 'f')
        and a.attnum >= 0 and not a.attisdropped
        and not (c.relname = any(${skipped}::text[]))
      order by c.relname, a.attnum`.execute(this.db);
    return tablesOf(rows);
  }
}

function tablesOf(rows: ColumnRow[]): TableMetadata[] {
  const tables = new Map<string, TableMetadata>();
  for (const row of rows) {
    let table = tables.get(row.table);
    if (!table) {
      table = {
        name: row.table,
        schema: row.schema,
        isView: row.table_type === 'v',
        isForeign: row.table_type === 'f',
        columns: [],
      };
      tables.set(row.table, table);
    }
    table.columns.push({
      name: row.column,
      dataType: row.type,
      dataTypeSchema: row.type_schema,
      isNullable: !row.not_null,
      hasDefaultValue: row.has_default,
      isAutoIncrementing: row.auto_incrementing,
      comment: row.column_description ?? undefined,
    });
  }
  return [...tables.values()];
}
