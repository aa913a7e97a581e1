import type { FastifyInstance } from 'fastify';
import type { Readiness, Store } from '../db/database.ts';
import type { Shutdown } from './shutdown.ts';

export const READY_PATH = '/readyz';

/** A store that takes longer than this to answer a probe is as good as down for the callers queued behind it. */
const STORE_ANSWER_MS = 2000;

/**
 * GET /readyz: 200 when this instance should be sent requests (the store answers and every
 * migration it knows has run), else 503 with the reason; 503 from the moment shutdown begins, while
 * requests are still taken (SHUTDOWN_DELAY_MS), so that a load balancer stops sending first.
 * `/healthz` stays the liveness check: it answers whatever the store does.
 */
export function registerReadiness(app: FastifyInstance, store: Store, shutdown: Shutdown): void {
  app.get(READY_PATH, async (request, reply) => {
    const verdict: Readiness = shutdown.notReady
      ? { ready: false, reason: 'this instance is shutting down' }
      : await storeReadiness(store).catch((err: unknown) => {
          request.log.warn({ err }, 'readiness: the store refused the check');
          return { ready: false, reason: 'the store refused the check (the log says why)' };
        });
    reply.header('Cache-Control', 'no-store');
    if (verdict.ready) return { status: 'ready' };
    return reply.code(503).send({ status: 'not_ready', reason: verdict.reason });
  });
}

async function storeReadiness(store: Store): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Readiness>((resolve) => {
    timer = setTimeout(
      () => resolve({ ready: false, reason: `the store did not answer within ${STORE_ANSWER_MS / 1000} s` }),
      STORE_ANSWER_MS,
    );
  });
  try {
    return await Promise.race([store.readiness(), late]);
  } finally {
    clearTimeout(timer);
  }
}
