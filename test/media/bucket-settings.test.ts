import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';

const BUCKET = { S3_BUCKET: 'guide-photos', S3_ENDPOINT: 'http://127.0.0.1:9000' };

describe('S3 settings', () => {
  it('none: photos stay on disk', () => {
    const config = loadConfig({});
    assert.equal(config.bucket, undefined);
    assert.equal(config.mediaUrl, undefined);
  });

  it('a bucket at an endpoint: path style, us-east-1, the media/ prefix and the SDK credentials by default', () => {
    const config = loadConfig(BUCKET);
    assert.deepEqual(config.bucket, {
      bucket: 'guide-photos',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: true,
      keyPrefix: 'media/',
    });
    assert.equal(config.mediaUrl, undefined, 'served through /media unless S3_PUBLIC_URL says otherwise');
  });

  it('AWS itself: no endpoint, each bucket its own host name; every setting as given', () => {
    const config = loadConfig({
      S3_BUCKET: 'guide-photos',
      S3_REGION: 'eu-central-1',
      S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_KEY_PREFIX: 'prod/photos/',
      S3_PUBLIC_URL: 'https://photos.example.com/',
    });
    assert.deepEqual(config.bucket, {
      bucket: 'guide-photos',
      endpoint: undefined,
      region: 'eu-central-1',
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' },
      forcePathStyle: false,
      keyPrefix: 'prod/photos/',
    });
    assert.equal(config.mediaUrl, 'https://photos.example.com/prod/photos/');
    assert.equal(loadConfig({ ...BUCKET, S3_FORCE_PATH_STYLE: 'false' }).bucket?.forcePathStyle, false);
    assert.equal(loadConfig({ ...BUCKET, S3_KEY_PREFIX: '' }).bucket?.keyPrefix, '');
  });

  it('refuses settings that cannot work, naming the setting', () => {
    const refused: Array<[Record<string, string>, RegExp]> = [
      [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, /S3_ENDPOINT set without S3_BUCKET/],
      [{ S3_PUBLIC_URL: 'https://photos.example.com' }, /S3_PUBLIC_URL set without S3_BUCKET/],
      [{ ...BUCKET, S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' }, /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/],
      [{ ...BUCKET, S3_BUCKET: 'Guide_Photos' }, /S3_BUCKET: must be a bucket name/],
      [{ ...BUCKET, S3_ENDPOINT: '127.0.0.1:9000' }, /S3_ENDPOINT must be an http:\/\/ or https:\/\/ address/],
      [{ ...BUCKET, S3_PUBLIC_URL: 'ftp://photos.example.com' }, /S3_PUBLIC_URL must be an http:\/\/ or https:\/\//],
      [{ ...BUCKET, S3_FORCE_PATH_STYLE: 'yes' }, /S3_FORCE_PATH_STYLE: must be true or false/],
      [{ ...BUCKET, S3_KEY_PREFIX: '/media/' }, /S3_KEY_PREFIX: must not start with \//],
      [{ ...BUCKET, S3_KEY_PREFIX: 'a b/' }, /S3_KEY_PREFIX: may hold only/],
    ];
    for (const [env, message] of refused) assert.throws(() => loadConfig(env), message, JSON.stringify(env));
  });
});
