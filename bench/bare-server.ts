/**
 * The startup bench's baseline (bench/startup.ts): a bare Fastify server with one route, started
 * as `npm start` starts the service (its own process, a free loopback port), that prints a banner
 * line once it listens. The least a service built on Fastify pays to come up.
 */
import Fastify from 'fastify';

const app = Fastify();
app.get('/', async () => ({ ok: true }));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`\nBare Fastify listening\n  REST     ${address}/api/v1\n\n`);
const close = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', close);
process.on('SIGINT', close);
