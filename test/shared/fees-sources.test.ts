import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { chars, createAndRead, times } from '../helpers/fixtures.ts';
import { itRefusesEach, type Refusal } from '../helpers/refusals.ts';
import { assertWriteRefused, describeOnSpots } from '../helpers/spot-fields.ts';

const fee = (i: number) => ({ label: `Fee ${i}`, amount: 10 + i, currency: 'EUR' });
/** Three good fees, then the one under test at index 3. */
const fourth = (bad: Record<string, unknown>) => ({ fees: [fee(0), fee(1), { label: 'Free', free: true }, bad] });

const feeRefusals: Refusal[] = [
  {
    title: '31 fees (max 30)',
    fields: { fees: times(31, fee) },
    code: 'invalid_request',
    path: 'fees',
    hint: /at most 30/,
  },
  {
    title: 'an amount without currency',
    fields: fourth({ label: 'Adult', amount: 40 }),
    code: 'invalid_request',
    path: 'fees[3].currency',
    hint: /ISO 4217/,
  },
  {
    title: 'an amount with free',
    fields: fourth({ label: 'Adult', amount: 40, currency: 'EUR', free: true }),
    code: 'invalid_request',
    path: 'fees[3].free',
    hint: /amount/,
  },
  {
    title: 'seeOfficial with an amount',
    fields: fourth({ label: 'Adult', amount: 40, currency: 'EUR', seeOfficial: true }),
    code: 'invalid_request',
    path: 'fees[3].seeOfficial',
    hint: /drop amount/,
  },
  {
    title: 'seeOfficial with free',
    fields: fourth({ label: 'Adult', free: true, seeOfficial: true }),
    code: 'invalid_request',
    path: 'fees[3].seeOfficial',
  },
  {
    title: 'validUntil before validFrom',
    fields: fourth({ label: 'Summer', validFrom: '2026-06-01', validUntil: '2026-05-31' }),
    code: 'invalid_request',
    path: 'fees[3].validUntil',
    hint: /not be before validFrom/,
  },
  {
    title: 'label of 81 (max 80)',
    fields: fourth({ label: chars(81) }),
    code: 'invalid_request',
    path: 'fees[3].label',
    hint: /at most 80/,
  },
  {
    title: 'an empty label',
    fields: fourth({ label: '' }),
    code: 'invalid_request',
    path: 'fees[3].label',
  },
  {
    title: 'note of 301 (max 300)',
    fields: fourth({ label: 'A', note: chars(301) }),
    code: 'invalid_request',
    path: 'fees[3].note',
    hint: /at most 300/,
  },
  {
    title: 'a negative amount',
    fields: fourth({ label: 'A', amount: -1, currency: 'EUR' }),
    code: 'invalid_request',
    path: 'fees[3].amount',
  },
  {
    title: 'a missing label',
    fields: fourth({ amount: 5, currency: 'EUR' }),
    code: 'invalid_argument',
    path: 'fees[3].label',
  },
  {
    title: 'an amount sent as a string',
    fields: fourth({ label: 'A', amount: '12', currency: 'EUR' }),
    code: 'invalid_argument',
    path: 'fees[3].amount',
  },
  {
    title: 'a currency outside ISO 4217',
    fields: fourth({ label: 'A', amount: 5, currency: 'XXY' }),
    code: 'invalid_argument',
    path: 'fees[3].currency',
    hint: /ISO 4217/,
  },
  {
    title: 'a per outside the list',
    fields: fourth({ label: 'A', per: 'week' }),
    code: 'invalid_argument',
    path: 'fees[3].per',
    hint: /"person"/,
  },
  {
    title: 'an audience outside the list',
    fields: fourth({ label: 'A', audience: 'kids' }),
    code: 'invalid_argument',
    path: 'fees[3].audience',
    hint: /"child"/,
  },
  {
    title: 'a paidWhere outside the list',
    fields: fourth({ label: 'A', paidWhere: 'at_the_door' }),
    code: 'invalid_argument',
    path: 'fees[3].paidWhere',
    hint: /"on_site"/,
  },
  {
    title: 'a payment outside the list',
    fields: fourth({ label: 'A', payment: 'crypto' }),
    code: 'invalid_argument',
    path: 'fees[3].payment',
    hint: /"cash_or_card"/,
  },
  {
    title: 'an unknown field inside a fee',
    fields: fourth({ label: 'A', price: 5 }),
    code: 'invalid_argument',
    path: 'fees[3].price',
    hint: /unknown field/,
  },
  {
    title: 'checkedOn that is not a day',
    fields: fourth({ label: 'A', checkedOn: '2025-02-29' }),
    code: 'invalid_request',
    path: 'fees[3].checkedOn',
  },
  {
    title: 'a sourceUrl that is not a url',
    fields: fourth({ label: 'A', sourceUrl: 'not a url' }),
    code: 'invalid_request',
    path: 'fees[3].sourceUrl',
  },
];

const source = (i: number) => ({ url: `https://example.com/source/${i}` });

const sourceRefusals: Refusal[] = [
  {
    title: '41 sources (max 40)',
    fields: { sources: times(41, source) },
    code: 'invalid_request',
    path: 'sources',
    hint: /at most 40/,
  },
  {
    title: 'a source with neither url nor title',
    fields: { sources: [source(0), { kind: 'document', note: 'A leaflet' }] },
    code: 'invalid_request',
    path: 'sources[1]',
    hint: /url or a title/,
  },
  {
    title: 'title of 201 (max 200)',
    fields: { sources: [{ title: chars(201) }] },
    code: 'invalid_request',
    path: 'sources[0].title',
    hint: /at most 200/,
  },
  {
    title: 'note of 501 (max 500)',
    fields: { sources: [{ ...source(0), note: chars(501) }] },
    code: 'invalid_request',
    path: 'sources[0].note',
    hint: /at most 500/,
  },
  {
    title: '13 supports entries (max 12)',
    fields: { sources: [{ ...source(0), supports: times(13, (i) => `fact ${i}`) }] },
    code: 'invalid_request',
    path: 'sources[0].supports',
    hint: /at most 12/,
  },
  {
    title: 'a supports entry of 61 (max 60)',
    fields: { sources: [{ ...source(0), supports: ['hours', chars(61)] }] },
    code: 'invalid_request',
    path: 'sources[0].supports[1]',
    hint: /at most 60/,
  },
  {
    title: 'a kind outside the list',
    fields: { sources: [{ ...source(0), kind: 'website' }] },
    code: 'invalid_argument',
    path: 'sources[0].kind',
    hint: /"page"/,
  },
  {
    title: 'conflict sent as a string',
    fields: { sources: [{ ...source(0), conflict: 'yes' }] },
    code: 'invalid_argument',
    path: 'sources[0].conflict',
  },
  {
    title: 'an unknown field inside a source',
    fields: { sources: [{ ...source(0), author: 'Me' }] },
    code: 'invalid_argument',
    path: 'sources[0].author',
    hint: /unknown field/,
  },
  {
    title: 'capturedOn 2026-02-30',
    fields: { sources: [{ ...source(0), capturedOn: '2026-02-30' }] },
    code: 'invalid_request',
    path: 'sources[0].capturedOn',
  },
  {
    title: 'an ftp url',
    fields: { sources: [{ url: 'ftp://example.com/data.csv' }] },
    code: 'invalid_request',
    path: 'sources[0].url',
  },
];

await describeOnSpots('Fee and SourceRef', 'Fees and sources', (suite, t) => {
  const { apis, ids } = suite;

  it('Fee: a full example reads back identical, the currency upper-cased', async () => {
    const full = {
      label: chars(80, 'A'),
      amount: 12.5,
      currency: 'chf',
      per: 'person',
      audience: 'adult',
      paidWhere: 'on_site',
      payment: 'cash_or_card',
      note: chars(300, 'n'),
      validFrom: '2026-01-01',
      validUntil: '2026-01-01',
      sourceUrl: 'https://example.com/prices',
      checkedOn: '2024-02-29',
    };
    const fees = [full, { label: 'Children', free: true, audience: 'child' }, { label: 'Boat', seeOfficial: true }];
    const spot = await createAndRead(apis[t], ids[t].productId, { fees });
    assert.deepEqual(spot.fees, [{ ...full, currency: 'CHF' }, fees[1], fees[2]]);
  });

  it('Fee: 30 fees are accepted, amount 0 and every value of each list', async () => {
    const lists: Array<[string, string[]]> = [
      ['per', ['person', 'vehicle', 'night', 'group', 'entry', 'day', 'hour']],
      ['audience', ['all', 'adult', 'child', 'foreign', 'domestic', 'resident', 'student', 'senior']],
      ['paidWhere', ['online', 'on_site', 'in_tour']],
      ['payment', ['cash_only', 'card_only', 'cash_or_card']],
    ];
    const fees: Array<Record<string, unknown>> = [{ label: 'Zero', amount: 0, currency: 'USD' }];
    for (const [field, values] of lists) for (const v of values) fees.push({ label: `${field} ${v}`, [field]: v });
    while (fees.length < 30) fees.push(fee(fees.length));
    const spot = await createAndRead(apis[t], ids[t].productId, { fees });
    assert.equal(spot.fees.length, 30);
    assert.deepEqual(spot.fees, fees);
  });

  it('Fee: an http sourceUrl is accepted with a warning at fees[i].sourceUrl', async () => {
    const a = await apis[t].call('create_spot', {
      productId: ids[t].productId,
      name: 'Http fee',
      fees: [fee(0), { ...fee(1), sourceUrl: 'http://example.com/prices' }],
    });
    assertOk(a, 201);
    assert.deepEqual(a.body.warnings, ['fees[1].sourceUrl: plain http link; prefer https if the site offers it.']);
  });

  itRefusesEach('Fee refused', feeRefusals, (c) => assertWriteRefused(apis[t], ids[t], c));

  it('a failed write changes nothing: one bad fee among good fields leaves the spot as it was', async () => {
    const start = await createAndRead(apis[t], ids[t].productId, {
      description: 'Before',
      fees: [fee(0)],
      links: [{ kind: 'website', url: 'https://example.com' }],
      status: { state: 'open' },
    });
    suite.h.clock.advance(60_000);
    const refused = await apis[t].call('update_spot', {
      spotId: start.spotId,
      name: 'Renamed',
      description: 'After',
      links: [],
      status: { state: 'closed' },
      fees: [fee(0), fee(1), fee(2), { label: 'Bad', amount: 3 }],
      sources: [{ title: 'A book' }],
    });
    assertError(refused, 'invalid_request', 'fees[3].currency', { pathInDetails: true });
    const now = await apis[t].call('get_spot', { spotId: start.spotId });
    assert.deepEqual(now.body, start);
    const list = await apis[t].call('list_spots', { productId: ids[t].productId });
    assert.equal(
      list.body.spots.filter((s: { name: string }) => s.name === 'Refused').length,
      0,
      'no refused create left a spot behind',
    );
  });

  it('SourceRef: a full example at every bound reads back identical', async () => {
    const sources = [
      {
        url: 'https://example.com/source',
        title: chars(200, 'T'),
        kind: 'archive',
        capturedOn: '2026-02-28',
        note: chars(500, 'n'),
        supports: times(12, (i) => `${i}`.padEnd(60, 'f')),
        conflict: true,
      },
      { title: 'A printed leaflet', kind: 'document', conflict: false },
      ...times(38, source),
    ];
    assert.equal(sources.length, 40);
    const spot = await createAndRead(apis[t], ids[t].productId, { sources });
    assert.deepEqual(spot.sources, sources);
  });

  itRefusesEach('SourceRef refused', sourceRefusals, (c) => assertWriteRefused(apis[t], ids[t], c));
});
