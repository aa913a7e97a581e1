import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { maskSecrets, withoutSecrets } from '../../src/core/log.ts';

const KEY = 'sk_service_AbCdEfGhIjKlMnOpQrStUvWxYz012345';

test('maskSecrets hides keys anywhere, bearer credentials and values of secret-named parameters', () => {
  assert.equal(maskSecrets(`/api/v1/me?api_key=${KEY}`), '/api/v1/me?api_key=[redacted]');
  assert.equal(maskSecrets(`/g/${KEY}/x?q=${KEY}`), '/g/[redacted]/x?q=[redacted]');
  assert.equal(
    maskSecrets('/x?access_token=t1&limit=5&Password=p&auth_code=c'),
    '/x?access_token=[redacted]&limit=5&Password=[redacted]&auth_code=[redacted]',
  );
  assert.equal(
    maskSecrets('/x?author=Ann&cursor=abc'),
    '/x?author=Ann&cursor=abc',
    'names that only contain a word are kept',
  );
  assert.equal(maskSecrets('sk%5Fservice%5Fabcdef'), '[redacted]');
  assert.equal(maskSecrets('header was Bearer abc.def'), 'header was Bearer [redacted]');
  assert.equal(maskSecrets('session=s1; theme=dark'), 'session=[redacted]; theme=dark');
});

test('a logger wrapped by withoutSecrets redacts credential headers and masks errors', () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const log = withoutSecrets(pino({ level: 'info' }, stream));
  log.info({ headers: { authorization: `Bearer ${KEY}`, cookie: 'session=s1', 'x-api-key': KEY, accept: '*/*' } });
  log.error({ err: Object.assign(new Error(`bad key ${KEY}`), { rawPacket: Buffer.from(KEY) }) }, 'failed');
  const [headers, error] = lines.map((line) => JSON.parse(line));
  assert.deepEqual(headers.headers, {
    authorization: '[redacted]',
    cookie: '[redacted]',
    'x-api-key': '[redacted]',
    accept: '*/*',
  });
  assert.equal(error.err.message, 'bad key [redacted]');
  assert.equal(error.err.rawPacket, undefined);
  assert.ok(!lines.join('').includes(KEY));
});
