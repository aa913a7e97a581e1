import type { HistoryTables } from '../../core/history.ts';

/** What the triggers kept of one table's rows of one record in one change, without their images. */
export interface TouchedRecord {
  change_id: string;
  tbl: string;
  kind: string;
  record_id: string;
  /** 1 when a row of it did not stand before the change. */
  created: number;
  /** 1 when a row of it no longer stood after. */
  gone: number;
}

export interface ChangeOutcome {
  /** The records touched, in the order first touched. */
  records: { kind: string; id: string }[];
  summary: string;
  /** Whether it deleted a record: deleting is permanent, so the change cannot be undone. */
  deletes: boolean;
}

type Done = 'created' | 'deleted' | 'changed';

/**
 * What a change did to each record it touched, read from its rows: a record's own row says whether
 * it came or went; a row that is part of it (a member, a link) only says it changed. A row made and
 * removed within the change left nothing.
 */
export function outcomeOf(rows: readonly TouchedRecord[], tables: HistoryTables): ChangeOutcome {
  const done = new Map<string, { kind: string; id: string; what: Done }>();
  for (const row of rows) {
    const declared = tables[row.tbl];
    const whole = !(declared !== 'untracked' && declared?.part);
    const created = Number(row.created) === 1;
    const gone = Number(row.gone) === 1;
    const what: Done = !whole || created === gone ? 'changed' : created ? 'created' : 'deleted';
    const key = `${row.kind} ${row.record_id}`;
    const known = done.get(key);
    if (!known) done.set(key, { kind: row.kind, id: row.record_id, what });
    else if (known.what === 'changed' && whole && what !== 'changed') known.what = what;
  }
  const counts = new Map<string, number>();
  for (const { kind, what } of done.values()) counts.set(`${what} ${kind}`, (counts.get(`${what} ${kind}`) ?? 0) + 1);
  return {
    records: [...done.values()].map(({ kind, id }) => ({ kind, id })),
    summary: [...counts].map(([phrase, n]) => (n === 1 ? phrase : `${phrase} ×${n}`)).join(', '),
    deletes: [...done.values()].some((d) => d.what === 'deleted'),
  };
}
