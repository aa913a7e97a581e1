import { connect } from 'node:net';

/** The shared Redis of suites that test limits across instances (not an outage: never stopped). */
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A PING answered with PONG, within a second. */
function redisReachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** Why a suite over Redis is skipped: never in CI, where a missing Redis fails the run. */
export const redisSkip =
  process.env.CI !== 'true' && !(await redisReachable(REDIS_URL)) ? `Redis not reachable at ${REDIS_URL}` : false;
