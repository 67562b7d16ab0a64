// The comparison server: Fastify with one route and nothing else, started with Node's defaults.
// With `log` it logs each request as Fastify does by default (`logger: true`: pino on stdout, a line
// when the request comes in and one when it is answered), the comparison for serve at its default
// log level; without, no logger at all.
import Fastify from 'fastify';

const app = Fastify({ logger: process.argv[3] === 'log' });
app.get('/', async () => ({ status: 'ok' }));
const address = await app.listen({ host: '127.0.0.1', port: Number(process.argv[2] ?? 0) });
process.stderr.write(`${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
