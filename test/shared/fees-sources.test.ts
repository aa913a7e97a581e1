import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { chars, createAndRead, times } from '../helpers/fixtures.ts';
import { itRefusesEach, type Refusal, refused, refusedArgument } from '../helpers/refusals.ts';
import { assertWriteRefused, describeOnSpots } from '../helpers/spot-fields.ts';

const fee = (i: number) => ({ label: `Fee ${i}`, amount: 10 + i, currency: 'EUR' });
/** Three good fees, then the one under test at index 3. */
const fourth = (bad: Record<string, unknown>) => ({ fees: [fee(0), fee(1), { label: 'Free', free: true }, bad] });

const feeRefusals: Refusal[] = [
  refused('31 fees (max 30)', { fees: times(31, fee) }, 'fees', /at most 30/),
  refused('an amount without currency', fourth({ label: 'Adult', amount: 40 }), 'fees[3].currency', /ISO 4217/),
  refused(
    'an amount with free',
    fourth({ label: 'Adult', amount: 40, currency: 'EUR', free: true }),
    'fees[3].free',
    /amount/,
  ),
  refused(
    'seeOfficial with an amount',
    fourth({ label: 'Adult', amount: 40, currency: 'EUR', seeOfficial: true }),
    'fees[3].seeOfficial',
    /drop amount/,
  ),
  refused('seeOfficial with free', fourth({ label: 'Adult', free: true, seeOfficial: true }), 'fees[3].seeOfficial'),
  refused(
    'validUntil before validFrom',
    fourth({ label: 'Summer', validFrom: '2026-06-01', validUntil: '2026-05-31' }),
    'fees[3].validUntil',
    /not be before validFrom/,
  ),
  refused('label of 81 (max 80)', fourth({ label: chars(81) }), 'fees[3].label', /at most 80/),
  refused('an empty label', fourth({ label: '' }), 'fees[3].label'),
  refused('note of 301 (max 300)', fourth({ label: 'A', note: chars(301) }), 'fees[3].note', /at most 300/),
  refused('a negative amount', fourth({ label: 'A', amount: -1, currency: 'EUR' }), 'fees[3].amount'),
  refusedArgument('a missing label', fourth({ amount: 5, currency: 'EUR' }), 'fees[3].label'),
  refusedArgument(
    'an amount sent as a string',
    fourth({ label: 'A', amount: '12', currency: 'EUR' }),
    'fees[3].amount',
  ),
  refusedArgument(
    'a currency outside ISO 4217',
    fourth({ label: 'A', amount: 5, currency: 'XXY' }),
    'fees[3].currency',
    /ISO 4217/,
  ),
  refusedArgument('a per outside the list', fourth({ label: 'A', per: 'week' }), 'fees[3].per', /"person"/),
  refusedArgument(
    'an audience outside the list',
    fourth({ label: 'A', audience: 'kids' }),
    'fees[3].audience',
    /"child"/,
  ),
  refusedArgument(
    'a paidWhere outside the list',
    fourth({ label: 'A', paidWhere: 'at_the_door' }),
    'fees[3].paidWhere',
    /"on_site"/,
  ),
  refusedArgument(
    'a payment outside the list',
    fourth({ label: 'A', payment: 'crypto' }),
    'fees[3].payment',
    /"cash_or_card"/,
  ),
  refusedArgument('an unknown field inside a fee', fourth({ label: 'A', price: 5 }), 'fees[3].price', /unknown field/),
  refused('checkedOn that is not a day', fourth({ label: 'A', checkedOn: '2025-02-29' }), 'fees[3].checkedOn'),
  refused('a sourceUrl that is not a url', fourth({ label: 'A', sourceUrl: 'not a url' }), 'fees[3].sourceUrl'),
];

const source = (i: number) => ({ url: `https://example.com/source/${i}` });

const sourceRefusals: Refusal[] = [
  refused('41 sources (max 40)', { sources: times(41, source) }, 'sources', /at most 40/),
  refused(
    'a source with neither url nor title',
    { sources: [source(0), { kind: 'document', note: 'A leaflet' }] },
    'sources[1]',
    /url or a title/,
  ),
  refused('title of 201 (max 200)', { sources: [{ title: chars(201) }] }, 'sources[0].title', /at most 200/),
  refused('note of 501 (max 500)', { sources: [{ ...source(0), note: chars(501) }] }, 'sources[0].note', /at most 500/),
  refused(
    '13 supports entries (max 12)',
    { sources: [{ ...source(0), supports: times(13, (i) => `fact ${i}`) }] },
    'sources[0].supports',
    /at most 12/,
  ),
  refused(
    'a supports entry of 61 (max 60)',
    { sources: [{ ...source(0), supports: ['hours', chars(61)] }] },
    'sources[0].supports[1]',
    /at most 60/,
  ),
  refusedArgument(
    'a kind outside the list',
    { sources: [{ ...source(0), kind: 'website' }] },
    'sources[0].kind',
    /"page"/,
  ),
  refusedArgument('conflict sent as a string', { sources: [{ ...source(0), conflict: 'yes' }] }, 'sources[0].conflict'),
  refusedArgument(
    'an unknown field inside a source',
    { sources: [{ ...source(0), author: 'Me' }] },
    'sources[0].author',
    /unknown field/,
  ),
  refused('capturedOn 2026-02-30', { sources: [{ ...source(0), capturedOn: '2026-02-30' }] }, 'sources[0].capturedOn'),
  refused('an ftp url', { sources: [{ url: 'ftp://example.com/data.csv' }] }, 'sources[0].url'),
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
