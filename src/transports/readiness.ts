import type { FastifyInstance } from 'fastify';
import type { Log } from '../core/log.ts';
import type { Store } from '../db/store-interface.ts';
import { storeUnavailable } from '../db/unavailable.ts';
import type { Shutdown } from './shutdown.ts';

export const READY_PATH = '/readyz';

/** A dependency that takes longer than this to answer a probe is as good as down for the callers queued behind it. */
const ANSWER_MS = 2000;

/**
 * What one dependency is now: `down` makes the instance not ready (it cannot serve its calls);
 * `degraded` keeps it ready (it serves them another way, as rate limits without Redis do).
 */
export type DependencyState = { status: 'up' } | { status: 'down' | 'degraded'; reason: string };

export interface Dependency {
  /** `store`, `bucket`, `redis`: what the answer names it. */
  name: string;
  check(log: Log): Promise<DependencyState>;
}

/**
 * GET /readyz: 200 when this instance should be sent requests (every dependency it needs answers),
 * else 503 with the reason; each dependency's state under `dependencies`. 503 from the moment
 * shutdown begins, while requests are still taken (SHUTDOWN_DELAY_MS), so that a load balancer
 * stops sending first. `/healthz` stays the liveness check: it answers whatever they do.
 */
export function registerReadiness(app: FastifyInstance, dependencies: readonly Dependency[], shutdown: Shutdown): void {
  app.get(READY_PATH, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (shutdown.notReady)
      return reply.code(503).send({ status: 'not_ready', reason: 'this instance is shutting down' });
    const states = await Promise.all(dependencies.map((d) => withinTime(d, request.log)));
    const down = states.flatMap((state) => (state.status === 'down' ? [state.reason] : []));
    const body = {
      status: down.length === 0 ? 'ready' : 'not_ready',
      ...(down.length > 0 && { reason: down.join('; ') }),
      dependencies: Object.fromEntries(dependencies.map((d, i) => [d.name, states[i]])),
    };
    return reply.code(down.length === 0 ? 200 : 503).send(body);
  });
}

async function withinTime(dependency: Dependency, log: Log): Promise<DependencyState> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<DependencyState>((resolve) => {
    timer = setTimeout(
      () => resolve({ status: 'down', reason: `the ${dependency.name} did not answer within ${ANSWER_MS / 1000} s` }),
      ANSWER_MS,
    );
  });
  try {
    return await Promise.race([dependency.check(log), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The store answers and every migration this build knows has run. */
export function storeDependency(store: Store): Dependency {
  return {
    name: 'store',
    async check(log) {
      try {
        const verdict = await store.readiness();
        return verdict.ready ? { status: 'up' } : { status: 'down', reason: verdict.reason };
      } catch (err) {
        if (storeUnavailable(err)) {
          log.warn({ err: (err as Error).message }, 'readiness: the store is unavailable');
          return { status: 'down', reason: 'the store is not answering (restarting, unreachable or locked)' };
        }
        log.warn({ err }, 'readiness: the store refused the check');
        return { status: 'down', reason: 'the store refused the check (the log says why)' };
      }
    },
  };
}

/** The bucket photo files live in can be listed: uploads and photo files need it. */
export function bucketDependency(probe: () => Promise<void>): Dependency {
  return {
    name: 'bucket',
    async check(log) {
      try {
        await probe();
        return { status: 'up' };
      } catch (err) {
        log.warn({ err }, 'readiness: the bucket refused the check');
        return { status: 'down', reason: 'the bucket cannot be listed (the log says why)' };
      }
    },
  };
}
