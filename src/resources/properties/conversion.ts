import { refuse } from '../../core/errors.ts';
import { ownValue } from '../../core/own.ts';
import { longerThan } from '../../core/validation.ts';
import type { CustomValue, CustomValues } from './custom-values.ts';
import { type PropertyKind, SHORT_LABEL_MAX } from './property.schema.ts';

interface SpotValues {
  spotId: string;
  spotKey: string;
  customValues: CustomValues;
}

export interface ConversionPlan {
  /** New values of the spots whose stored value changes shape. */
  changes: Array<{ spotId: string; customValues: CustomValues }>;
}

type Converter = (key: string, spots: readonly SpotValues[]) => ConversionPlan;

const keep: Converter = () => ({ changes: [] });

function refuseFor(spots: readonly SpotValues[], sentence: string): never {
  const named = spots.slice(0, 20).map((s) => s.spotKey);
  const more = spots.length > named.length ? ` and ${spots.length - named.length} more` : '';
  throw refuse('toKind', `${sentence} Spots in the way: ${named.join(', ')}${more}.`);
}

function reshape(key: string, spots: readonly SpotValues[], to: (v: CustomValue) => CustomValue): ConversionPlan {
  return {
    changes: spots.map((s) => ({
      spotId: s.spotId,
      customValues: { ...s.customValues, [key]: to(ownValue(s.customValues, key) as CustomValue) },
    })),
  };
}

/** The conversion table of the specification: the only kind changes allowed, and their effect. */
const conversions: Partial<Record<`${PropertyKind}->${PropertyKind}`, Converter>> = {
  'singleSelect->checkbox': (key, spots) => reshape(key, spots, (v) => [v as string]),
  'checkbox->singleSelect': (key, spots) => {
    const blocking = spots.filter((s) => (ownValue(s.customValues, key) as string[]).length > 1);
    if (blocking.length > 0) refuseFor(blocking, 'Some spots hold more than one option; leave one on each first.');
    return reshape(key, spots, (v) => (v as string[])[0] as string);
  },
  'shortLabel->longSection': keep,
  'longSection->shortLabel': (key, spots) => {
    const blocking = spots.filter((s) => {
      const text = ownValue(s.customValues, key) as string;
      return /[\r\n]/.test(text) || longerThan(text, SHORT_LABEL_MAX);
    });
    if (blocking.length > 0) {
      refuseFor(blocking, `Every value must fit one line of at most ${SHORT_LABEL_MAX} characters.`);
    }
    return { changes: [] };
  },
};

export function planConversion(
  from: PropertyKind,
  to: PropertyKind,
  key: string,
  spots: readonly SpotValues[],
): ConversionPlan {
  if (from === to) throw refuse('toKind', `the property is already ${to}.`);
  const convert = conversions[`${from}->${to}`];
  if (!convert) {
    throw refuse(
      'toKind',
      `${from} cannot become ${to}. Allowed: singleSelect↔checkbox and shortLabel↔longSection. ` +
        'For any other change, create a new property and archive this one (archive_property).',
    );
  }
  return convert(key, spots);
}
