import type { Clock } from './clock.ts';

/**
 * What handlers use besides the store: blob storage, the link checker… Each resource adds its own
 * by declaration merging (as with `Stores`), builds it from the settings in its `index.ts`, and
 * tests may hand in their own (a link checker allowed to reach the test's local servers).
 */
// biome-ignore lint/suspicious/noEmptyInterface: resources merge their services into it
export interface Services {}

/** What a resource builds its services from: the settings every resource may read. */
export interface ServiceSettings {
  /** The process's clock (the link checker stamps its results with it). */
  clock: Clock;
  /** The folder of the embedded store; files a resource keeps live below it by default. */
  dataDir: string;
  /** Where photo files live when not under `dataDir` (MEDIA_DIR). */
  mediaDir?: string | undefined;
  /** The S3-compatible bucket photo files live in instead of a folder, when set (S3_BUCKET). */
  bucket?: BucketSettings | undefined;
}

/** An S3-compatible bucket, as the S3_* settings name it. */
export interface BucketSettings {
  bucket: string;
  /** The service's address (MinIO, R2, a test server); AWS's own for the region when undefined. */
  endpoint: string | undefined;
  region: string;
  /** The AWS SDK's default chain (AWS_* variables, profiles, instance roles) when undefined. */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `endpoint/bucket/key` addresses rather than `bucket.endpoint/key`. */
  forcePathStyle: boolean;
  /** Put before every object name (`media/` by default); only names under it are listed and swept. */
  keyPrefix: string;
}
