import { ApiError, refuse } from '../../core/errors.ts';
import { longerThan, tooManyCharacters } from '../../core/validation.ts';
import { isCalendarDate } from '../../shared/dates.ts';
import { LONG_SECTION_MAX, type PropertyKind, SHORT_LABEL_MAX } from './property.schema.ts';
import type { OwnedProperty } from './property.store.ts';

export type CustomValue = string | number | string[];
export type CustomValues = Record<string, CustomValue>;
export type CustomNotes = Record<string, string>;

const NOTE_MAX = 1000;

function wrongType(path: string, kind: PropertyKind, value: unknown): ApiError {
  const expected: Record<PropertyKind, string> = {
    shortLabel: 'a string (one line)',
    longSection: 'a string',
    number: 'a number',
    date: 'a date string YYYY-MM-DD',
    checkbox: 'an array of option ids',
    singleSelect: 'one option id (string)',
  };
  return new ApiError(
    'invalid_argument',
    `${path}: a ${kind} property takes ${expected[kind]}, got ${JSON.stringify(value)}`,
  );
}

/** Lengths are counted in characters (code points), as every text field of the API counts them. */
function checkLength(path: string, value: string, max: number): void {
  if (longerThan(value, max)) throw refuse(path, `${tooManyCharacters(max, value)}.`);
}

/**
 * Spot custom values checked against the guide's property definitions: each value by its
 * property's kind, option ids against the live options. A PATCH of values merges by key; null
 * (or an empty value) removes one.
 */
export class CustomValuesWriter {
  private readonly byKey: Map<string, OwnedProperty>;

  constructor(properties: readonly OwnedProperty[]) {
    this.byKey = new Map(properties.map((p) => [p.key, p]));
  }

  /** `removing`: an archived property's stored value may be removed, never written. */
  private property(path: string, key: string, removing = false): OwnedProperty {
    const property = this.byKey.get(key);
    if (!property) {
      const known = [...this.byKey.values()].filter((p) => !p.archived).map((p) => p.key);
      throw refuse(
        `${path}.${key}`,
        `no custom property with key "${key}" in this guide${known.length > 0 ? `; its keys are ${known.join(', ')}` : '; create it first with create_property'}.`,
      );
    }
    if (property.archived && !removing) {
      throw refuse(`${path}.${key}`, `the property "${key}" is archived: unarchive it first, or use another property.`);
    }
    return property;
  }

  applyValues(current: CustomValues, patch: Record<string, unknown>, path = 'customValues'): CustomValues {
    const next: CustomValues = { ...current };
    for (const [key, raw] of Object.entries(patch)) {
      const property = this.property(path, key, raw === null);
      const value = raw === null ? null : this.normalize(`${path}.${key}`, property, raw);
      if (value === null) delete next[key];
      else next[key] = value;
    }
    return next;
  }

  applyNotes(current: CustomNotes, patch: Record<string, unknown>, path = 'customNotes'): CustomNotes {
    const next: CustomNotes = { ...current };
    for (const [key, raw] of Object.entries(patch)) {
      this.property(path, key, raw === null || raw === '');
      if (raw === null || raw === '') {
        delete next[key];
        continue;
      }
      if (typeof raw !== 'string') {
        throw new ApiError('invalid_argument', `${path}.${key}: a note is a string, got ${JSON.stringify(raw)}`);
      }
      checkLength(`${path}.${key}`, raw, NOTE_MAX);
      next[key] = raw;
    }
    return next;
  }

  /** The stored form of one value, or null when the value is empty and so removes it. */
  private normalize(path: string, property: OwnedProperty, raw: unknown): CustomValue | null {
    const live = new Set(property.options.filter((o) => !o.archived).map((o) => o.id));
    const checkOption = (id: string, at: string) => {
      if (!live.has(id)) {
        throw refuse(
          at,
          `"${id}" is not a live option of "${property.key}"; its options are ${[...live].join(', ') || 'none'}.`,
        );
      }
    };
    switch (property.kind) {
      case 'shortLabel':
        if (typeof raw !== 'string') throw wrongType(path, property.kind, raw);
        if (raw === '') return null;
        if (/[\r\n]/.test(raw)) throw refuse(path, 'a shortLabel value is one line: remove the line breaks.');
        checkLength(path, raw, SHORT_LABEL_MAX);
        return raw;
      case 'longSection':
        if (typeof raw !== 'string') throw wrongType(path, property.kind, raw);
        if (raw === '') return null;
        checkLength(path, raw, LONG_SECTION_MAX);
        return raw;
      case 'number':
        if (typeof raw !== 'number' || !Number.isFinite(raw)) throw wrongType(path, property.kind, raw);
        return raw;
      case 'date':
        if (typeof raw !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(raw)) throw wrongType(path, property.kind, raw);
        if (!isCalendarDate(raw)) throw refuse(path, `${raw} is not a day on the calendar.`);
        return raw;
      case 'singleSelect':
        if (typeof raw !== 'string') throw wrongType(path, property.kind, raw);
        if (raw === '') return null;
        checkOption(raw, path);
        return raw;
      case 'checkbox': {
        if (!Array.isArray(raw) || raw.some((id) => typeof id !== 'string')) throw wrongType(path, property.kind, raw);
        const ids = raw as string[];
        for (const [i, id] of ids.entries()) checkOption(id, `${path}[${i}]`);
        if (new Set(ids).size !== ids.length) throw refuse(path, 'lists an option twice: list each option once.');
        return ids.length === 0 ? null : ids;
      }
    }
  }
}
