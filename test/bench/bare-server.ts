// The comparison server: Fastify with one route and nothing else. run.ts starts it with or without
// the V8 flags of the systemd unit, which timetrack's serve gets in the bench as in production.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ status: 'ok' }));
const address = await app.listen({ host: '127.0.0.1', port: Number(process.argv[2] ?? 0) });
process.stdout.write(`${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
