/** What the targets, the checks and the setup share: the servers, the fixtures, one request and its answer. */

/** An answer of the app, fetched once at setup: its exact bytes, content type and parsed JSON (undefined for HTML). */
export interface Reference {
  body: Buffer;
  contentType: string;
  json: unknown;
}

/** What the setup made for a group of targets (see bench/seed.ts). */
export type FixtureName = 'guide' | 'spots2000' | 'batch25' | 'trip14' | 'salesPage';

export interface Fixture {
  productId: string;
  /** The REST request both the app and the raw server answer: method, path, body. */
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  requestBody?: string;
  /** The app's answer to that request: what the raw server answers and the checks compare with. */
  reference: Reference;
  /** batch25: the spots of the batch; trip14: the days; as sent. */
  sent?: Array<Record<string, unknown>>;
}

/** What the bench knows about the running servers and the fixtures made for the chosen targets. */
export interface BenchContext {
  rawOrigin: string;
  appOrigin: string;
  key: string;
  fixtures: Partial<Record<FixtureName, Fixture>>;
}

export interface TargetRequest {
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  body?: string;
}

export interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
}

export function fixtureOf(ctx: Pick<BenchContext, 'fixtures'>, name: FixtureName): Fixture {
  const fixture = ctx.fixtures[name];
  if (fixture === undefined) throw new Error(`fixture ${name} was not set up`);
  return fixture;
}
