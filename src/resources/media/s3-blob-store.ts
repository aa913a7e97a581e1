import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { BucketSettings } from '../../core/services.ts';
import { type BlobFacts, type BlobInfo, type BlobStream, KeyedBlobStore, type StoredBlob } from './blob-store.ts';

/**
 * What buyers' browsers and caches are told when they fetch an object from the bucket's own
 * addresses (S3_PUBLIC_URL): a key is written once and never rewritten, as on /media.
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The object's metadata entry that holds the ETag this service serves (the S3 ETag is an MD5). */
const SHA256 = 'sha256';

/** The header SigV4 signs the payload with: the body's SHA-256 in hex. */
const PAYLOAD_HASH_HEADER = 'x-amz-content-sha256';

/**
 * A put whose payload hash is the one `put` already computed for the ETag: without it the SDK
 * hashes every file a second time, on the main thread, to sign it. The bucket checks the body
 * against it as it would against the SDK's own.
 */
function signedWithHash(put: PutObjectCommand, hex: string): PutObjectCommand {
  put.middlewareStack.add(
    (next) => (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) request.headers[PAYLOAD_HASH_HEADER] = hex;
      return next(args);
    },
    { step: 'build', name: 'knownPayloadHash' },
  );
  return put;
}

export interface S3BlobStoreOptions {
  /** Keys a listing asks for per page (S3 answers at most 1000); tests page through small pages. */
  listPageSize?: number;
  /** Time to the answer's headers, and to connect; a slower call fails (and the SDK retries it). */
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
}

function isMissing(err: unknown): boolean {
  const name = (err as { name?: string }).name;
  return name === 'NoSuchKey' || name === 'NotFound';
}

/**
 * Blobs as objects in an S3-compatible bucket, named `<keyPrefix><key>`, through the AWS SDK. An
 * object appears whole or not at all (S3 puts are atomic), reads see every write that finished
 * before them, and each object carries its content type, an immutable Cache-Control for buyers who
 * fetch it from the bucket itself, and the SHA-256 ETag this service serves on /media.
 */
export class S3BlobStore extends KeyedBlobStore {
  readonly client: S3Client;
  readonly bucket: string;
  readonly keyPrefix: string;
  private readonly listPageSize: number;
  /**
   * Whether puts carry a checksum the bucket verifies and keeps with the object (the SDK's
   * `requestChecksumCalculation`, WHEN_SUPPORTED unless AWS_REQUEST_CHECKSUM_CALCULATION or the
   * profile says WHEN_REQUIRED, for a service that cannot take checksums).
   */
  private readonly sendsChecksum: Promise<boolean>;

  constructor(settings: BucketSettings, options: S3BlobStoreOptions = {}) {
    super();
    this.bucket = settings.bucket;
    this.keyPrefix = settings.keyPrefix;
    this.listPageSize = options.listPageSize ?? 1000;
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      // By default a body of 2 MB or more (an original) is sent with `Expect: 100-continue`: the SDK
      // then opens a connection of its own for it, outside the keep-alive pool (a TLS handshake per
      // photo on a real bucket), and waits for the bucket's go-ahead before sending. A photo is at
      // most 6 MB, and a bucket that refuses is the operator's to fix: the bytes are simply sent.
      expectContinueHeader: false,
      ...(settings.endpoint !== undefined && { endpoint: settings.endpoint }),
      ...(settings.credentials !== undefined && { credentials: settings.credentials }),
      requestHandler: {
        connectionTimeout: options.connectTimeoutMs ?? 5000,
        requestTimeout: options.requestTimeoutMs ?? 30_000,
        // Without it, the SDK only logs a warning when the request timeout passes.
        throwOnRequestTimeout: true,
        httpAgent: { keepAlive: true, maxSockets: 64 },
        httpsAgent: { keepAlive: true, maxSockets: 64 },
      },
    });
    this.sendsChecksum = this.client.config.requestChecksumCalculation().then((when) => when === 'WHEN_SUPPORTED');
    // Read at the first put; a setting the SDK refuses fails that put, not the start.
    this.sendsChecksum.catch(() => {});
  }

  protected placeOf(key: string): string {
    return `${this.keyPrefix}${key}`;
  }

  /**
   * One hash serves three ends: the ETag's SHA-256 is the object's metadata, SigV4's payload hash
   * and the checksum the bucket verifies the body against and keeps (x-amz-checksum-sha256). Given
   * a checksum, the SDK computes none of its own (CRC32 by default: a pass over every file).
   */
  protected async write(objectName: string, bytes: Buffer, facts: BlobFacts): Promise<void> {
    const sha256 = Buffer.from(facts.etag.slice(1, -1), 'base64url');
    const put = new PutObjectCommand({
      Bucket: this.bucket,
      Key: objectName,
      Body: bytes,
      ContentLength: facts.size,
      ContentType: facts.contentType,
      CacheControl: IMMUTABLE,
      Metadata: { [SHA256]: facts.etag.slice(1, -1) },
      ...((await this.sendsChecksum) && { ChecksumSHA256: sha256.toString('base64') }),
    });
    await this.client.send(signedWithHash(put, sha256.toString('hex')));
  }

  /** The object's answer, or undefined when there is none under the key. */
  private async fetch(key: string): Promise<GetObjectCommandOutput | undefined> {
    try {
      return await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.place(key) }));
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  private infoOf(key: string, answer: GetObjectCommandOutput): BlobInfo {
    const sha = answer.Metadata?.[SHA256];
    return {
      key,
      contentType: answer.ContentType ?? 'application/octet-stream',
      // An object this service did not write has no SHA-256 of ours: the bucket's own ETag serves.
      etag: sha ? `"${sha}"` : (answer.ETag ?? '""'),
      size: answer.ContentLength ?? 0,
    };
  }

  async get(key: string): Promise<StoredBlob | undefined> {
    const answer = await this.fetch(key);
    if (!answer?.Body) return undefined;
    return { ...this.infoOf(key, answer), bytes: Buffer.from(await answer.Body.transformToByteArray()) };
  }

  async open(key: string): Promise<BlobStream | undefined> {
    const answer = await this.fetch(key);
    if (!answer?.Body) return undefined;
    return { ...this.infoOf(key, answer), stream: answer.Body as Readable };
  }

  /** S3 answers the same whether or not the object was there: deleting a missing key is no error. */
  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.place(key) }));
  }

  /** Every object under the prefix, page by page. */
  protected async *names() {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.keyPrefix,
          MaxKeys: this.listPageSize,
          ...(token !== undefined && { ContinuationToken: token }),
        }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.keyPrefix.length);
        if (key === undefined || !object.LastModified) continue;
        yield { key, modifiedMs: object.LastModified.getTime() };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  close(): void {
    this.client.destroy();
  }
}
