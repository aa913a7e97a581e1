import { refuse } from '../../core/errors.ts';
import { firstFree, slugify } from '../../shared/text.ts';
import { filterableKinds, optionKinds, type PropertyKind, type PropertyOption } from './property.schema.ts';

/** Property keys and option ids are at most 40 characters. */
export const KEY_MAX = 40;
const OPTION_ID_MAX = KEY_MAX;

/** A property key from a label: "Entry fee (€)" → "entry_fee". */
export function keyFromLabel(label: string): string {
  const base = slugify(label, 'property').replace(/-/g, '_').slice(0, 40).replace(/_+$/, '');
  return /^[a-z]/.test(base) ? base : `p_${base}`.slice(0, 40);
}

/** Refuses settings that do not fit the kind. */
export function checkKindSettings(
  kind: PropertyKind,
  settings: { filterable?: boolean | undefined; numUnit?: string | null | undefined; options?: unknown[] | undefined },
): void {
  if (settings.filterable === true && !filterableKinds.has(kind)) {
    throw refuse(
      'filterable',
      `buyers can filter on number, date, checkbox and singleSelect properties, not on ${kind}.`,
    );
  }
  if (settings.numUnit && kind !== 'number') throw refuse('numUnit', `is for number properties only, not ${kind}.`);
  if (settings.options !== undefined && settings.options.length > 0 && !optionKinds.has(kind)) {
    throw refuse('options', `are for checkbox and singleSelect properties only, not ${kind}.`);
  }
}

/**
 * The options after a full-list edit: listed options in the order given (an id keeps an existing
 * option, without one a new option is minted from its label); existing options left out are
 * archived, never deleted, because spots may hold their ids.
 */
export function nextOptions(
  current: readonly PropertyOption[],
  listed: ReadonlyArray<{ id?: string | undefined; label: string }>,
): PropertyOption[] {
  const byId = new Map(current.map((o) => [o.id, o]));
  const taken = new Set(current.map((o) => o.id));
  const seen = new Set<string>();
  const live: PropertyOption[] = listed.map((item, i) => {
    let id = item.id;
    if (id !== undefined) {
      if (!byId.has(id))
        throw refuse(`options[${i}].id`, `"${id}" is not an option of this property; omit the id to add a new option.`);
    } else {
      const base = slugify(item.label, 'option').slice(0, 40).replace(/-+$/, '');
      id = firstFree(base, taken, OPTION_ID_MAX, '-');
    }
    if (seen.has(id)) throw refuse(`options[${i}].id`, `"${id}" is listed twice.`);
    seen.add(id);
    taken.add(id);
    return { id, label: item.label, order: i + 1, archived: false };
  });
  const retired = current
    .filter((o) => !seen.has(o.id))
    .map((o, i) => ({ ...o, archived: true, order: live.length + i + 1 }));
  return [...live, ...retired];
}
