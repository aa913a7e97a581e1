import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { Log } from '../src/core/log.ts';
import type { AnyOperation } from '../src/core/operation.ts';
import type { PresentedRequest } from '../src/transports/authenticate.ts';
import { InputMerger } from '../src/transports/input.ts';
import { RestRoute } from '../src/transports/rest-route.ts';
import { principal, rate, read, runtime } from './helpers/plain-read.ts';

const request: PresentedRequest = { ip: '127.0.0.1', headers: {}, url: '/api/v1/things/th_1', method: 'GET' };
const log = { error() {} } as unknown as Log;
const callOf = (route: RestRoute, id = 'th_1') => route.call(request, 'rq_1', log, { id }, {}, undefined);

describe('a REST route’s call', () => {
  it('answers without a promise when the key is held and every step has its value', async () => {
    const answer = { id: 'th_1' };
    const outcome = callOf(
      new RestRoute(
        read(() => answer),
        runtime,
        () => principal,
      ),
    );
    // rest-early.ts then writes the answer in the parser's turn, without a turn of the microtask queue.
    assert.ok(!(outcome instanceof Promise));
    assert.equal(outcome.failed, false);
    assert.equal(outcome.rate, rate);
    assert.equal(outcome.body.toString(), '{"id":"th_1"}');

    const later = callOf(
      new RestRoute(
        read(() => answer),
        runtime,
        async () => principal,
      ),
    );
    assert.ok(later instanceof Promise, 'a key read from the store');
    assert.equal((await later).body.toString(), '{"id":"th_1"}');
    const waited = callOf(
      new RestRoute(
        read(async () => answer),
        runtime,
        () => principal,
      ),
    );
    assert.ok(waited instanceof Promise, 'a handler that answers a promise');
    assert.equal((await waited).body.toString(), '{"id":"th_1"}');
  });

  it('answers refusals and failures as the outcome, never thrown nor rejected', async () => {
    const refusedKey = new Error('no key');
    const byKey = await callOf(
      new RestRoute(
        read(() => ({})),
        runtime,
        () => Promise.reject(refusedKey),
      ),
    );
    assert.equal(byKey.failed, true);
    assert.equal(byKey.error, refusedKey);
    const strict = { ...read(() => ({})), input: z.strictObject({ id: z.string().min(3) }) } as AnyOperation;
    const byInput = await callOf(new RestRoute(strict, runtime, () => principal), 'x');
    assert.equal(byInput.failed, true);
    assert.equal((byInput.error as { code?: string }).code, 'invalid_argument');
    const thrown = await callOf(
      new RestRoute(
        read(() => {
          throw new Error('handler failed');
        }),
        runtime,
        () => principal,
      ),
    );
    assert.equal(thrown.failed, true);
    assert.match(String(thrown.error), /handler failed/);
    const unencodable = await callOf(
      new RestRoute(
        read(async () => ({ n: 1n })),
        runtime,
        () => principal,
      ),
    );
    assert.equal(unencodable.failed, true, 'an answer that cannot be encoded');
  });
});

describe('a REST request’s input', () => {
  const merger = new InputMerger(read(() => ({})));

  it('is a plain object when only the path names fields, which V8 keeps in its fast form', () => {
    const input = merger.merge({ id: 'th_1' }, {}, undefined);
    assert.deepEqual(input, { id: 'th_1' });
    assert.equal(Object.getPrototypeOf(input), Object.prototype);
  });

  it('keeps a client’s keys in a record without a prototype: `__proto__` stays an ordinary key', () => {
    const fromQuery = merger.merge({ id: 'th_1' }, JSON.parse('{"__proto__":"x"}'), undefined);
    assert.equal(Object.getPrototypeOf(fromQuery), null);
    assert.equal(Object.hasOwn(fromQuery, '__proto__'), true);
    const fromBody = merger.merge({ id: 'th_1' }, {}, JSON.parse('{"__proto__":{"polluted":1}}'));
    assert.equal(Object.getPrototypeOf(fromBody), null);
    assert.equal((fromBody as { polluted?: number }).polluted, undefined);
  });
});
