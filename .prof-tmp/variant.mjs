import Fastify, { LogController } from 'fastify';
import pino from 'pino';
const level = Number(process.argv[3]);
const opts = {};
if (level >= 3) opts.trustProxy = false;
if (level >= 4) { opts.loggerInstance = pino({ level: 'warn' }); opts.logController = new LogController({ disableRequestLogging: true }); }
if (level >= 5) { opts.requestTimeout = 30000; opts.return503OnClosing = false; opts.bodyLimit = 16384; }
const app = Fastify(opts);
const H = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer', 'cross-origin-resource-policy': 'same-origin', 'cross-origin-opener-policy': 'same-origin' };
if (level >= 2) app.addHook('onRequest', (request, reply, done) => { reply.headers(H); done(); });
app.setNotFoundHandler((request, reply) => {
  const query = request.url.indexOf('?');
  const message = JSON.stringify(`Route ${request.method} ${query === -1 ? request.url : request.url.slice(0, query)} not found`);
  reply.code(404).type('application/json; charset=utf-8').send(`{"statusCode":404,"error":"Not Found","code":"NOT_FOUND","message":${message}}`);
});
app.get('/', async () => ({ status: 'ok' }));
if (level >= 6) { for (let i = 0; i < 60; i++) app.get(`/api/r${i}/:id`, async () => ({})); }
await app.listen({ host: '127.0.0.1', port: Number(process.argv[2]) });
process.on('SIGTERM', () => process.exit(0));
