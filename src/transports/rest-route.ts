import { API_PREFIX } from '../core/addresses.ts';
import { invoke, type Runtime } from '../core/invoke.ts';
import { jsonBytesOf } from '../core/json.ts';
import type { Log } from '../core/log.ts';
import type { AnyOperation } from '../core/operation.ts';
import type { RateLimitOutcome } from '../core/rate-limit.ts';
import { stampReadsOf } from '../db/database.ts';
import type { Authenticate, PresentedRequest } from './authenticate.ts';
import { InputMerger } from './input.ts';
import type { UploadBody } from './upload-body.ts';

/** What one REST call came to, whichever way it arrived (Fastify's route, or rest-early.ts). */
export interface RestOutcome {
  /** What it spent from the rate limits, once counted (a refusal before that has none). */
  rate: RateLimitOutcome | undefined;
  status: number;
  body: Buffer;
  location: string | undefined;
  /** Set when the call was refused or failed: `error` is then what to answer. */
  failed: boolean;
  error: unknown;
}

/** One operation's REST route: what it runs, and how its request becomes the operation's input. */
export class RestRoute {
  readonly operation: AnyOperation;
  private readonly merger: InputMerger;
  private readonly runtime: Runtime;
  private readonly authenticate: Authenticate;

  constructor(operation: AnyOperation, runtime: Runtime, authenticate: Authenticate) {
    this.operation = operation;
    this.merger = new InputMerger(operation);
    this.runtime = runtime;
    this.authenticate = authenticate;
  }

  /**
   * The key checked, the input merged (after the upload's body is read, by `readUpload`), the
   * operation run and its answer encoded; a refusal or failure is the outcome, never thrown.
   */
  async call(
    request: PresentedRequest,
    id: string,
    log: Log,
    params: Record<string, string>,
    query: Record<string, unknown>,
    body: unknown,
    readUpload?: () => Promise<UploadBody | undefined>,
  ): Promise<RestOutcome> {
    const operation = this.operation;
    const outcome: RestOutcome = {
      rate: undefined,
      status: operation.successStatus,
      body: EMPTY,
      location: undefined,
      failed: false,
      error: undefined,
    };
    // Before the key's check, which reads the store's commit stamp: the read the call's views may use.
    const arrival = stampReadsOf(this.runtime.db);
    try {
      const authenticated = this.authenticate(request);
      const principal = authenticated instanceof Promise ? await authenticated : authenticated;
      const upload = readUpload ? await readUpload() : undefined;
      const input = this.merger.merge(params, query, body, upload?.fields);
      const call = { principal, requestId: id, log, uploads: upload?.uploads, arrival };
      const invoked = invoke(this.runtime, operation, input, call, (rate) => {
        outcome.rate = rate;
      });
      const { result } = invoked instanceof Promise ? await invoked : invoked;
      if (operation.location) outcome.location = API_PREFIX + operation.location(result, input);
      outcome.body = jsonBytesOf(result);
    } catch (err) {
      outcome.failed = true;
      outcome.error = err;
    }
    return outcome;
  }
}

const EMPTY = Buffer.alloc(0);
