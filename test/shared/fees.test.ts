import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { feeSchema } from '../../src/shared/fees.ts';
import { refusals } from '../helpers/refusals.ts';

const fee = z.strictObject({ fee: feeSchema });
const refused = (value: Record<string, unknown>) => refusals(fee, { fee: { label: 'Adult', ...value } });

describe('fee rules', () => {
  it('an amount comes with its currency', () => {
    assert.deepEqual(refused({ amount: 12.5, currency: 'EUR' }), []);
    assert.deepEqual(refused({ amount: 12.5 }), ['fee.currency: is required with an amount (ISO 4217, e.g. "EUR")']);
  });

  it('free and an amount exclude each other', () => {
    assert.deepEqual(refused({ free: true }), []);
    assert.deepEqual(refused({ amount: 0, currency: 'EUR', free: true }), [
      'fee.free: cannot be combined with an amount: drop one',
    ]);
  });

  it('seeOfficial leaves the price to the official page: no amount, not free', () => {
    assert.deepEqual(refused({ seeOfficial: true }), []);
    const leftToOfficial =
      'fee.seeOfficial: means the price is left to the official page: drop amount and free, or drop seeOfficial';
    assert.deepEqual(refused({ seeOfficial: true, free: true }), [leftToOfficial]);
    assert.deepEqual(refused({ seeOfficial: true, amount: 5, currency: 'EUR' }), [leftToOfficial]);
  });

  it('validUntil not before validFrom', () => {
    assert.deepEqual(refused({ validFrom: '2026-01-01', validUntil: '2025-12-31' }), [
      'fee.validUntil: must not be before validFrom (2026-01-01)',
    ]);
  });
});
