import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { buildApp as buildS3Server } from 'fauxqs';
import { type TestDialect, testDialects } from './dialects.ts';

/** Where a test server keeps photo files: a folder on disk, or a bucket of a local S3-compatible server. */
export type TestBlobStore = 'disk' | 's3';

const ALL: readonly TestBlobStore[] = ['disk', 's3'];

/** The blob stores suites run on: both, narrowed by TEST_BLOB_STORES=disk (or s3). */
export function testBlobStores(): TestBlobStore[] {
  const wanted = (process.env.TEST_BLOB_STORES ?? ALL.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const store of wanted) {
    if (!ALL.includes(store as TestBlobStore)) throw new Error(`TEST_BLOB_STORES: unknown store ${store}`);
  }
  return wanted as TestBlobStore[];
}

export interface TestSetup {
  dialect: TestDialect;
  blobStore: TestBlobStore;
  skip: string | false;
  /** `sqlite, s3`: what a suite's title names. */
  name: string;
}

/** Every dialect with every blob store, for suites whose photo files matter as much as their rows. */
export async function testSetups(): Promise<TestSetup[]> {
  const out: TestSetup[] = [];
  for (const { dialect, skip } of await testDialects()) {
    for (const blobStore of testBlobStores()) out.push({ dialect, blobStore, skip, name: `${dialect}, ${blobStore}` });
  }
  return out;
}

/** Any key and secret do: the test server does not check signatures, and nothing leaves the machine. */
export const TEST_CREDENTIALS = { accessKeyId: 'test-key-id', secretAccessKey: 'test-secret' };

let server: Promise<string> | undefined;

/**
 * An S3-compatible server (fauxqs, objects in memory) for this test process, on a free loopback
 * port: built with fauxqs's app and listened to on 127.0.0.1 by hand, since its own start listens on
 * every interface. It does not keep the process alive.
 */
export function s3Endpoint(): Promise<string> {
  server ??= (async () => {
    const app = buildS3Server({ logger: false });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    // Neither it nor a connection a client keeps alive holds the test process open.
    app.server.unref();
    app.server.on('connection', (socket) => socket.unref());
    return address;
  })();
  return server;
}

/** A fresh, empty bucket on the test server: its name and the endpoint. */
export async function freshBucket(): Promise<{ endpoint: string; bucket: string }> {
  const endpoint = await s3Endpoint();
  const bucket = `t-${process.pid}-${randomBytes(6).toString('hex')}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: TEST_CREDENTIALS });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
  return { endpoint, bucket };
}

/** The settings that put a server's photo files in a fresh bucket of the test server. */
export async function bucketEnv(endpoint?: string): Promise<Record<string, string>> {
  const fresh = await freshBucket();
  return {
    S3_ENDPOINT: endpoint ?? fresh.endpoint,
    S3_BUCKET: fresh.bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: TEST_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: TEST_CREDENTIALS.secretAccessKey,
  };
}

export interface RefusingProxy {
  /** An endpoint that passes requests on to the test server, but refuses those `refuse` picks. */
  endpoint: string;
  /** How many requests were refused so far. */
  refused(): number;
  close(): Promise<void>;
}

/**
 * A bucket that refuses some writes: in front of the test server, requests `refuse` picks are
 * answered 403 AccessDenied (as a bucket policy or a full quota answers, and not retried by the
 * SDK); every other request goes through untouched.
 */
export async function refusingProxy(refuse: (req: IncomingMessage) => boolean): Promise<RefusingProxy> {
  const target = new URL(await s3Endpoint());
  let refused = 0;
  const server = createServer((req, res) => {
    if (refuse(req)) {
      refused++;
      req.resume();
      req.on('end', () => {
        res.writeHead(403, { 'content-type': 'application/xml' });
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>',
        );
      });
      return;
    }
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    refused: () => refused,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
