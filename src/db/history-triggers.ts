import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { CURRENT_CHANGE_SETTING, type HistoryTables } from '../core/history.ts';
import { SPLICED_FROM_BYTES } from './history-splices.ts';
import { CHANGE_FIELDS } from './node-sqlite-adapter.ts';
import type { Dialect } from './store-interface.ts';
import type { Database } from './tables.ts';

/**
 * The triggers that keep a guide's history (docs/decisions/history.md). Which tables hold a guide's
 * content is read from the schema, not listed: `guides`, every table with a `guide_id` column, and
 * every table whose foreign key points at one of those (members, links), except the tables a
 * resource declares `untracked` (releases, purchases, link checks…). Run after every migration,
 * at each start: a table a later migration adds is tracked, and a table whose columns changed gets
 * triggers that record them all. The embedded store's are TEMP triggers, made on each connection
 * at its open, that read the open change from the connection (`history_change()`, and each row's
 * place in it, `history_order()`): naming them writes nothing at all.
 */

/** A tracked table as its triggers see it. */
export interface TrackedTable {
  name: string;
  columns: string[];
  keyColumns: string[];
  kind: string;
  idColumn: string;
  unrecorded: string[];
  /** Long text columns an update may keep as splices (TableHistory.spliced). */
  spliced: string[];
  /** Its foreign keys to other tracked tables: what a whole-guide copy reads and writes in order by. */
  references: TableReference[];
  /**
   * The columns of its unique keys that may hold null (a chapter's slug): undo and restore clear
   * them before putting values back, so two records that traded values never clash half-way.
   */
  nullableUnique: string[];
}

/** One single-column foreign key between tracked tables. */
export interface TableReference {
  column: string;
  table: string;
  targetColumn: string;
  onDelete: 'cascade' | 'set null' | 'other';
}

interface Column {
  tbl: string;
  name: string;
  /** Its place in the primary key, from 1; 0 when not in it. */
  pk: number;
  /** 1 when it may hold null and is in a unique key other than the primary one. */
  nullable_unique: number;
}

interface ForeignKey {
  tbl: string;
  target: string;
  from: string;
  to: string | null;
  on_delete: string;
}

/** The tables holding guide content in the store's schema, with what their triggers need. */
export async function trackedTables(
  db: Kysely<Database>,
  dialect: Dialect,
  declared: HistoryTables,
): Promise<TrackedTable[]> {
  const { columns, foreignKeys } = dialect === 'postgres' ? await postgresCatalog(db) : await sqliteCatalog(db);
  const byTable = Map.groupBy(columns, (column) => column.tbl);
  const content = new Set(
    [...byTable].filter(([t, cs]) => t === 'guides' || cs.some((c) => c.name === 'guide_id')).map(([t]) => t),
  );
  for (let grew = true; grew; ) {
    grew = false;
    for (const fk of foreignKeys) {
      if (content.has(fk.target) && !content.has(fk.tbl)) {
        content.add(fk.tbl);
        grew = true;
      }
    }
  }
  const tracked: TrackedTable[] = [];
  for (const name of [...content].sort()) {
    const declaration = declared[name];
    if (declaration === 'untracked') continue;
    const tableColumns = byTable.get(name) ?? [];
    const keyColumns = tableColumns
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    if (keyColumns.length === 0) throw new Error(`history: table ${name} holds guide content but has no primary key`);
    const idColumn = declaration?.idColumn ?? (keyColumns.includes('id') ? 'id' : (keyColumns[0] as string));
    const nullableUnique = tableColumns.filter((c) => Number(c.nullable_unique) === 1).map((c) => c.name);
    const spliced = [...(declaration?.spliced ?? [])];
    // An undo clears unique values before putting them back (traded-values.ts): it needs them whole.
    const splicedKey = spliced.find((c) => nullableUnique.includes(c) || keyColumns.includes(c));
    if (splicedKey !== undefined) throw new Error(`history: ${name}.${splicedKey} is a key, and cannot be spliced`);
    tracked.push({
      name,
      columns: tableColumns.map((c) => c.name),
      keyColumns,
      kind: declaration?.kind ?? name,
      idColumn,
      unrecorded: [...(declaration?.unrecorded ?? [])],
      spliced,
      references: [],
      nullableUnique,
    });
  }
  const byName = new Map(tracked.map((t) => [t.name, t]));
  for (const fk of foreignKeys) {
    const table = byName.get(fk.tbl);
    if (!table || !byName.has(fk.target)) continue;
    const onDelete = fk.on_delete.toUpperCase();
    table.references.push({
      column: fk.from,
      table: fk.target,
      targetColumn: fk.to ?? 'id',
      onDelete: onDelete === 'CASCADE' ? 'cascade' : onDelete === 'SET NULL' ? 'set null' : 'other',
    });
  }
  return tracked;
}

async function sqliteCatalog(db: Kysely<Database>): Promise<{ columns: Column[]; foreignKeys: ForeignKey[] }> {
  const { rows: columns } = await sql<Column>`
    select m.name as tbl, c.name as name, c.pk as pk,
      (c."notnull" = 0 and exists (select 1 from pragma_index_list(m.name) l, pragma_index_info(l.name) i
        where l."unique" = 1 and l.origin <> 'pk' and i.name = c.name)) as nullable_unique
    from sqlite_master m, pragma_table_info(m.name) c
    where m.type = 'table' and m.name not like 'sqlite_%' order by m.name, c.cid`.execute(db);
  const { rows: foreignKeys } = await sql<ForeignKey>`
    select m.name as tbl, f."table" as target, f."from" as "from", f."to" as "to", f.on_delete as on_delete
    from sqlite_master m, pragma_foreign_key_list(m.name) f where m.type = 'table'`.execute(db);
  return { columns, foreignKeys };
}

async function postgresCatalog(db: Kysely<Database>): Promise<{ columns: Column[]; foreignKeys: ForeignKey[] }> {
  const { rows: columns } = await sql<Column>`
    select c.relname as tbl, a.attname as name,
      coalesce((select u.ord from unnest(i.indkey) with ordinality u(attnum, ord) where u.attnum = a.attnum), 0)::int as pk,
      (not a.attnotnull and exists (select 1 from pg_index u where u.indrelid = c.oid and u.indisunique
        and not u.indisprimary and a.attnum = any(u.indkey)))::int as nullable_unique
    from pg_class c
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    left join pg_index i on i.indrelid = c.oid and i.indisprimary
    where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r'
    order by c.relname, a.attnum`.execute(db);
  const { rows: foreignKeys } = await sql<ForeignKey>`
    select c.relname as tbl, t.relname as target, a.attname as "from", ta.attname as "to",
      case k.confdeltype when 'c' then 'CASCADE' when 'n' then 'SET NULL' else 'NO ACTION' end as on_delete
    from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class t on t.oid = k.confrelid
    join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
    join pg_attribute ta on ta.attrelid = k.confrelid and ta.attnum = k.confkey[1]
    where k.contype = 'f' and c.relnamespace = current_schema()::regnamespace`.execute(db);
  return { columns, foreignKeys };
}

/** Brings the history triggers in line with the tables: creates what is missing, drops what is stale. */
export async function syncHistoryTriggers(
  db: Kysely<Database>,
  dialect: Dialect,
  declared: HistoryTables,
): Promise<void> {
  if (dialect === 'postgres') {
    // Instances starting together on one schema take turns.
    await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(current_schema() || ' history triggers'))`.execute(trx);
      await sql.raw(POSTGRES_FUNCTION).execute(trx);
      await syncTriggers(trx, dialect, await trackedTables(trx, dialect, declared));
    });
  } else {
    await db.transaction().execute(async (trx) => {
      await syncTriggers(trx, dialect, await trackedTables(trx, dialect, declared));
    });
  }
}

/**
 * Takes the embedded store's history triggers away before migrations run: each names its table's
 * columns, so a migration that rebuilds a table or drops a column would trip over them. They are
 * made again once the migrations have run (syncHistoryTriggers). PostgreSQL's name no column.
 * Those of the file itself are what stores written before migration 0036 kept.
 */
export async function dropHistoryTriggers(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') return;
  for (const { name, schema } of await sqliteHistoryTriggers(db)) {
    await sql.raw(`drop trigger ${schema}.${name}`).execute(db);
  }
}

/** The embedded store's history triggers: the connection's (temp), and any the file still holds (main). */
async function sqliteHistoryTriggers(db: Kysely<Database>): Promise<{ name: string; tbl: string; schema: string }[]> {
  const { rows } = await sql<{ name: string; tbl: string; schema: string }>`
    select name, tbl_name as tbl, 'temp' as schema from sqlite_temp_master
    where type = 'trigger' and name like 'history!_%' escape '!'
    union all
    select name, tbl_name as tbl, 'main' as schema from sqlite_master
    where type = 'trigger' and name like 'history!_%' escape '!'`.execute(db);
  return rows;
}

async function syncTriggers(db: Kysely<Database>, dialect: Dialect, tables: readonly TrackedTable[]): Promise<void> {
  const wanted = new Map<string, { table: string; statement: string }>();
  for (const table of tables) {
    const statements = dialect === 'postgres' ? [postgresTrigger(table)] : sqliteTriggers(table);
    for (const statement of statements) {
      const name = `history_${createHash('sha256').update(statement).digest('hex').slice(0, 16)}`;
      wanted.set(name, { table: table.name, statement: statement.replace('$NAME', name) });
    }
  }
  if (dialect === 'postgres') {
    const { rows: existing } = await sql<{ name: string; tbl: string }>`
      select t.tgname as name, c.relname as tbl from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where c.relnamespace = current_schema()::regnamespace and t.tgname like 'history!_%' escape '!'`.execute(db);
    for (const { name, tbl } of existing) {
      if (wanted.has(name)) wanted.delete(name);
      else await sql.raw(`drop trigger ${name} on ${tbl}`).execute(db);
    }
  } else {
    for (const { name, schema } of await sqliteHistoryTriggers(db)) {
      if (schema === 'temp' && wanted.has(name)) wanted.delete(name);
      else await sql.raw(`drop trigger ${schema}.${name}`).execute(db);
    }
  }
  for (const { statement } of wanted.values()) await sql.raw(statement).execute(db);
}

/**
 * One function serves every table: the trigger's arguments name the key columns, the record kind,
 * the id column and the columns not recorded. A change keeps each row's first state: all of it when
 * it deletes the row, only the columns it changed when it updates one (what an undo puts back, and
 * a page a write where a whole spot took one), none when it creates it; a column changed later in
 * the same change adds its first value. `gone` follows whether the row still stands.
 */
const POSTGRES_FUNCTION = `
create or replace function history_record_row() returns trigger language plpgsql as $$
declare
  v_change text := current_setting('${CURRENT_CHANGE_SETTING}', true);
  v_unrecorded text[] := string_to_array(TG_ARGV[3], ',');
  v_keys text[] := string_to_array(TG_ARGV[0], ',');
  v_old jsonb;
  v_new jsonb;
  v_before jsonb;
  v_source jsonb;
  v_key jsonb;
begin
  if v_change is null or v_change = '' then return null; end if;
  if TG_OP <> 'INSERT' then v_old := to_jsonb(OLD) - v_unrecorded; end if;
  if TG_OP <> 'DELETE' then v_new := to_jsonb(NEW) - v_unrecorded; end if;
  v_before := v_old;
  if TG_OP = 'UPDATE' then
    if v_old = v_new then return null; end if;
    -- A row whose key moved is kept whole: it is put back by its old key.
    if not exists (select 1 from unnest(v_keys) k where v_old -> k is distinct from v_new -> k) then
      select jsonb_object_agg(o.key, o.value) into v_before from jsonb_each(v_old) o where v_new -> o.key is distinct from o.value;
    end if;
  end if;
  v_source := coalesce(v_old, v_new);
  select jsonb_object_agg(k, v_source -> k) into v_key from unnest(v_keys) k;
  insert into change_rows (change_id, tbl, row_key, kind, record_id, before, gone)
  values (v_change, TG_TABLE_NAME, v_key::text, TG_ARGV[1], v_source ->> TG_ARGV[2], v_before::text,
    case when TG_OP = 'DELETE' then 1 else 0 end)
  on conflict on constraint change_rows_row do update set gone = excluded.gone,
    before = (coalesce(excluded.before::jsonb, '{}'::jsonb) || change_rows.before::jsonb)::text;
  return null;
end $$`;

function postgresTrigger(table: TrackedTable): string {
  const args = [table.keyColumns.join(','), table.kind, table.idColumn, table.unrecorded.join(',')];
  // An update that sets no recorded column (a guide's revision and stamps, on every write) runs no trigger.
  const recorded = table.columns.filter((c) => !table.unrecorded.includes(c));
  const updates = recorded.length > 0 ? ` or update of ${recorded.map(quote).join(', ')}` : '';
  return (
    `create trigger $NAME after insert${updates} or delete on ${quote(table.name)} for each row ` +
    `execute function history_record_row(${args.map(literal).join(', ')})`
  );
}

/**
 * The first value of each column, kept over a later image's: `history_entries.before` is what the
 * change kept so far (null: it created the row, and keeps nothing), `excluded.before` the new image.
 * A function, for the spliced values it makes whole or adds to (db/history-splices.ts).
 */
const SQLITE_FIRST_VALUES = 'history_first_values(history_entries.before, excluded.before)';

/**
 * SQLite has no row-to-JSON: each table's triggers name its columns, and are made again when they
 * change. They write the history's entries themselves (`change_rows` is a view of them there:
 * resources/history/entries.migration.ts).
 */
function sqliteTriggers(table: TrackedTable): string[] {
  const recorded = table.columns.filter((c) => !table.unrecorded.includes(c));
  const image = (row: 'OLD' | 'NEW', columns: readonly string[]) =>
    `json_object(${columns.map((c) => `${literal(c)}, ${row}.${quote(c)}`).join(', ')})`;
  const differs = (c: string) => `OLD.${quote(c)} is not NEW.${quote(c)}`;
  // The columns the update changed, with their values before it (the whole row when its key moved).
  // (A whole image less its unchanged columns, json_remove(json_object(…)), is twice the work, and
  // the image written out as text, '{' || … || '}', a tenth more: both measured.)
  // A long text of a column that may be spliced is kept as a splice where the update changed little
  // of it (db/history-splices.ts): `s` is its JSON, or null and the value is kept whole.
  const spliced = (c: string) =>
    table.spliced.includes(c)
      ? `case when typeof(OLD.${quote(c)}) = 'text' and typeof(NEW.${quote(c)}) = 'text' and ` +
        `octet_length(OLD.${quote(c)}) > ${SPLICED_FROM_BYTES} then history_splice(OLD.${quote(c)}, NEW.${quote(c)}) end`
      : 'null';
  const changedImage =
    `case when ${table.keyColumns.map(differs).join(' or ')} then ${image('OLD', recorded)} else ` +
    `(select json_group_object(c, coalesce(json(s), v)) from (${recorded
      .map((c) => `select ${literal(c)} as c, OLD.${quote(c)} as v, ${spliced(c)} as s where ${differs(c)}`)
      .join(' union all ')})) end`;
  // The change's own fields go on its first row's entry (first-row.migration.ts): history_order()
  // comes before them in the row of values, and they answer null for every later row.
  const record = (row: 'OLD' | 'NEW', before: string, gone: 0 | 1, onConflict: string) =>
    `insert into history_entries (change_id, tbl, row_key, ord, kind, record_id, before, gone, ${CHANGE_FIELDS.join(', ')}) ` +
    `select history_change(), ${literal(table.name)}, ${image(row, table.keyColumns)}, history_order(), ${literal(table.kind)}, ` +
    `cast(${row}.${quote(table.idColumn)} as text), ${before}, ${gone}, ${CHANGE_FIELDS.map((_, n) => `history_change_field(${n})`).join(', ')} where true ` +
    `on conflict (change_id, tbl, row_key) do update set ${onConflict}; `;
  // TEMP, on the file's table: history_change() is the connection's open change (node-sqlite-adapter.ts).
  const on = `on main.${quote(table.name)} when history_change() is not null`;
  const triggers = [
    `create temp trigger $NAME after insert ${on} begin ${record('NEW', 'null', 0, 'gone = 0')}end`,
    `create temp trigger $NAME after delete ${on} begin ` +
      `${record('OLD', image('OLD', recorded), 1, `gone = 1, before = ${SQLITE_FIRST_VALUES}`)}end`,
  ];
  // A write that deletes a guide keeps no change of it (core/history.ts, closeOnConnection).
  if (table.name === 'guides') {
    triggers.push(
      `create temp trigger $NAME after delete ${on} begin select history_guide_removed(OLD.${quote(table.idColumn)}); end`,
    );
  }
  // Only an update that sets a recorded column runs it: SQLite leaves it out of the statements that
  // set none (a guide's revision and stamps, on every write). Its columns are compared before the
  // open change is asked for, a call into JavaScript.
  if (recorded.length > 0) {
    triggers.push(
      `create temp trigger $NAME after update of ${recorded.map(quote).join(', ')} on main.${quote(table.name)} ` +
        `when (${recorded.map(differs).join(' or ')}) and history_change() is not null begin ` +
        `${record('OLD', changedImage, 0, `before = ${SQLITE_FIRST_VALUES}`)}end`,
    );
  }
  return triggers;
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
