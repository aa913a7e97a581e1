import { API_PREFIX } from '../core/addresses.ts';
import type { Principal } from '../core/auth.ts';
import { type Invocation, invoke, type Runtime } from '../core/invoke.ts';
import { jsonBytesOf } from '../core/json.ts';
import type { Log } from '../core/log.ts';
import type { AnyOperation, Upload } from '../core/operation.ts';
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
   * operation run and its answer encoded; a refusal or failure is the outcome, never thrown. A call
   * whose every step has its value at once (a cached read under a held key) is answered as it is, not
   * through a promise: the early path then writes it before the parser's turn ends (rest-early.ts).
   */
  call(
    request: PresentedRequest,
    id: string,
    log: Log,
    params: Record<string, string>,
    query: Record<string, unknown>,
    body: unknown,
    readUpload?: () => Promise<UploadBody | undefined>,
  ): RestOutcome | Promise<RestOutcome> {
    const outcome: RestOutcome = {
      rate: undefined,
      status: this.operation.successStatus,
      body: EMPTY,
      location: undefined,
      failed: false,
      error: undefined,
    };
    // Before the key's check, which reads the store's commit stamp: the read the call's views may use.
    const arrival = stampReadsOf(this.runtime.db);
    try {
      const authenticated = this.authenticate(request);
      if (authenticated instanceof Promise || readUpload) {
        return this.callLater(outcome, authenticated, id, log, params, query, body, arrival, readUpload);
      }
      const input = this.merger.merge(params, query, body);
      const invoked = this.invoke(outcome, authenticated, id, log, input, arrival, undefined);
      if (invoked instanceof Promise) {
        return invoked
          .then((done) => this.answered(outcome, done, input))
          .catch((err: unknown) => failed(outcome, err));
      }
      return this.answered(outcome, invoked, input);
    } catch (err) {
      return failed(outcome, err);
    }
  }

  /** The call once its key's check, or its upload's body, is awaited. */
  private async callLater(
    outcome: RestOutcome,
    authenticated: Principal | Promise<Principal>,
    id: string,
    log: Log,
    params: Record<string, string>,
    query: Record<string, unknown>,
    body: unknown,
    arrival: number | undefined,
    readUpload: (() => Promise<UploadBody | undefined>) | undefined,
  ): Promise<RestOutcome> {
    try {
      const principal = await authenticated;
      const upload = readUpload ? await readUpload() : undefined;
      const input = this.merger.merge(params, query, body, upload?.fields);
      const invoked = await this.invoke(outcome, principal, id, log, input, arrival, upload?.uploads);
      return this.answered(outcome, invoked, input);
    } catch (err) {
      return failed(outcome, err);
    }
  }

  private invoke(
    outcome: RestOutcome,
    principal: Principal,
    requestId: string,
    log: Log,
    input: Record<string, unknown>,
    arrival: number | undefined,
    uploads: Upload[] | undefined,
  ): Invocation | Promise<Invocation> {
    const call = { principal, requestId, log, uploads, arrival };
    return invoke(this.runtime, this.operation, input, call, (rate) => {
      outcome.rate = rate;
    });
  }

  /** The outcome of a call that ran: its answer encoded (and where a created resource is). */
  private answered(outcome: RestOutcome, { result }: Invocation, input: Record<string, unknown>): RestOutcome {
    const { operation } = this;
    if (operation.location) outcome.location = API_PREFIX + operation.location(result, input);
    outcome.body = jsonBytesOf(result);
    return outcome;
  }
}

function failed(outcome: RestOutcome, err: unknown): RestOutcome {
  outcome.failed = true;
  outcome.error = err;
  return outcome;
}

const EMPTY = Buffer.alloc(0);
