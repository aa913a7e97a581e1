/**
 * Full spots for the spot targets: every editable field populated the way a creator's assistant
 * fills them (a few hundred characters of description, pins, map links, links, a status notice,
 * fees with currency, a schedule with bands and special days, hours in words, sources, review
 * notes, dates checked recently and due in the future), varied by a seeded generator so that runs
 * send and store the same content. customValues stay empty.
 */

/** A small deterministic generator (mulberry32), so every run seeds the same spots. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PLACES = [
  'Braies,Sorapiss,Carezza,Fedaia,Tre Cime,Seceda,Cinque Torri,Val di Funes,Gardena',
  'Hallstatt,Grossglockner,Krimml,Zell am See,Eiger,Lauterbrunnen,Oeschinen,Zermatt',
  'Bled,Bohinj,Triglav,Chamonix,Annecy,Königssee,Watzmann,Zugspitze,Garmisch',
]
  .join(',')
  .split(',');
const KINDS = [
  ['Lago di', 'lake'],
  ['Rifugio', 'hut'],
  ['Passo', 'pass'],
  ['Malga', 'farm'],
  ['Cascata di', 'waterfall'],
  ['Belvedere', 'viewpoint'],
  ['Forcella', 'saddle'],
  ['Chiesa di', 'church'],
  ['Museo di', 'museum'],
] as const;
const SENTENCES = [
  'The path climbs gently through larch woods before opening onto a wide meadow with the peaks all around.',
  'Come early: by ten the car park is full and the shuttle from the valley runs every twenty minutes.',
  'The hut serves canederli, polenta with mushrooms and a strudel that is worth the climb on its own.',
  'In late June the meadows flower and the light at sunset turns the rock walls pink for a few minutes.',
  'The lake is glacial and cold even in August; swimming is not allowed, but rowing boats can be hired.',
  'Sturdy shoes are enough in summer; after October snow can linger on the north-facing stretch.',
  'A short detour leads to a First World War trench line with a small open-air exhibition.',
  'Dogs are welcome on a leash; the last stretch is a via ferrata and not suitable for young children.',
  'Photographers should stay for blue hour, when the village lights come on below the ridge.',
  'Cash is still the safest way to pay at the top; the card reader depends on the weather.',
] as const;
const PIN_KINDS = ['viewpoint', 'trailhead', 'parking', 'stop', 'entrance', 'summit'] as const;

const pick = <T>(rng: () => number, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const round = (n: number, digits: number) => Number(n.toFixed(digits));
/** The first `min` to all items of a list: a few of them. */
const some = <T>(rng: () => number, list: T[], min: number): T[] =>
  list.slice(0, min + Math.floor(rng() * (list.length - min + 1)));

/** YYYY-MM-DD `days` after (or before, when negative) today. */
export function dayFrom(today: string, days: number): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Spot number `index` of a guide: every field set, content varied by `rng`. */
export function fullSpot(index: number, rng: () => number, today: string): Record<string, unknown> {
  const place = pick(rng, PLACES);
  const [prefix, kind] = pick(rng, KINDS);
  const name = `${prefix} ${place} ${index + 1}`;
  const ascii = place
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const spotKey = `${kind}-${ascii.replace(/[^a-z0-9]+/g, '-')}-${index + 1}`;
  const lat = round(45.9 + rng() * 1.6, 5);
  const lon = round(6.9 + rng() * 7.4, 5);
  const currency = lon < 10.4 && lat > 46.2 ? 'CHF' : 'EUR';
  const slug = spotKey.replace(/-\d+$/, '');
  const checked = dayFrom(today, -Math.floor(rng() * 30));
  const description = Array.from({ length: 2 + Math.floor(rng() * 3) }, () => pick(rng, SENTENCES)).join(' ');
  const pins = Array.from({ length: 1 + Math.floor(rng() * 3) }, (_, p) => ({
    kind: PIN_KINDS[(index + p) % PIN_KINDS.length]!,
    label: `${place} ${PIN_KINDS[(index + p) % PIN_KINDS.length]}`,
    lat: round(lat + (rng() - 0.5) / 50, 5),
    lon: round(lon + (rng() - 0.5) / 50, 5),
    ...(p === 0 ? { months: [6, 7, 8, 9], note: 'Best from the wooden platform; the bench faces west.' } : {}),
  }));
  const adult = round(5 + rng() * 20, 1);
  return {
    spotKey,
    name,
    description,
    lat,
    lon,
    pins,
    mapLinks: [
      { label: 'Google Maps', url: `https://www.google.com/maps/search/?api=1&query=${lat},${lon}` },
      { label: 'Pin', url: `geo:${lat},${lon}` },
    ],
    links: some(
      rng,
      [
        { kind: 'official', label: 'Official site', url: `https://www.${slug}.example.com/` },
        {
          kind: 'tickets',
          url: `https://tickets.${slug}.example.com/book?lang=en`,
          note: 'Book a day ahead in August.',
        },
        { kind: 'status', label: 'Road and trail status', url: `https://status.${slug}.example.com/` },
        { kind: 'other', label: 'Hut phone', value: `+39 0436 ${String(100000 + index).slice(-6)}` },
      ],
      2,
    ),
    status: {
      state: pick(rng, ['open', 'partly_closed', 'reopening'] as const),
      note: 'The upper trail is under repair after a rockfall; the lake loop stays open.',
      since: dayFrom(today, -20),
      until: dayFrom(today, 40 + Math.floor(rng() * 60)),
      sourceUrl: `https://status.${slug}.example.com/notices/${index + 1}`,
      checkedOn: checked,
    },
    fees: some(
      rng,
      [
        {
          label: 'Entry',
          amount: adult,
          currency,
          per: 'person',
          audience: 'adult',
          paidWhere: 'on_site',
          payment: 'cash_or_card',
          validUntil: dayFrom(today, 200),
          checkedOn: checked,
        },
        {
          label: 'Entry, children',
          amount: round(adult / 2, 1),
          currency,
          per: 'person',
          audience: 'child',
          note: 'Under 6 free.',
        },
        {
          label: 'Parking',
          amount: round(8 + rng() * 12, 0),
          currency,
          per: 'day',
          payment: 'card_only',
          sourceUrl: `https://www.${slug}.example.com/parking`,
        },
      ],
      1,
    ),
    schedule: {
      hours: some(
        rng,
        [
          { open: '09:00', close: '17:00', lastEntry: '16:15' },
          {
            from: '06-15',
            to: '09-15',
            open: 'sunrise',
            openOffsetMin: 30,
            close: 'sunset',
            closeOffsetMin: -30,
            note: 'Summer season',
          },
          { from: '11-02', to: '12-20', closed: true, note: 'Closed between seasons' },
        ],
        1,
      ),
      specialDays: some(
        rng,
        [
          { date: dayFrom(today, 60 + (index % 30)), closed: true, note: 'Staff day' },
          { rule: 'Easter Monday', open: '10:00', close: '16:00' },
        ],
        1,
      ),
      validFrom: dayFrom(today, -90),
      validUntil: dayFrom(today, 300),
      sourceUrl: `https://www.${slug}.example.com/hours`,
      checkedOn: checked,
    },
    hours:
      'Daily 9:00–17:00 (last entry 16:15); in summer from half an hour after sunrise to half an hour before sunset. Closed early November to late December.',
    sources: some(
      rng,
      [
        {
          url: `https://www.${slug}.example.com/hours`,
          title: 'Official opening hours',
          kind: 'page',
          capturedOn: checked,
          supports: ['schedule', 'hours'],
        },
        { url: `https://tickets.${slug}.example.com/prices`, kind: 'page', capturedOn: checked, supports: ['fees'] },
        {
          title: 'Phone call with the hut keeper',
          kind: 'other',
          note: 'Confirmed the repair works and the reopening date.',
          supports: ['status'],
        },
      ],
      1,
    ),
    areaId: null,
    archived: false,
    customValues: {},
    customNotes: {},
    reviewNotes: 'Prices from the official page; check the parking fee again before the summer season.',
    factsCheckedOn: checked,
    reviewBy: dayFrom(today, 120 + Math.floor(rng() * 120)),
  };
}
