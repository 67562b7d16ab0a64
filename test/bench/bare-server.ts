// The comparison server of the memory figure: Fastify with one route and nothing else. With
// --timetrack-v8-settings it first applies the V8 settings that bin/timetrack.cjs gives every
// timetrack process, for the informational same-settings row of the table.
import { createRequire } from 'node:module';

if (process.argv.includes('--timetrack-v8-settings')) {
  const launcher = createRequire(import.meta.url)('../../../dist/cli/launch.cjs') as { applyV8MemorySettings: () => void };
  launcher.applyV8MemorySettings();
}
// Imported after the settings, as timetrack loads its bundle after them.
const { default: Fastify } = await import('fastify');
const app = Fastify({ logger: false });
app.get('/', async () => ({ status: 'ok' }));
const address = await app.listen({ host: '127.0.0.1', port: Number(process.argv[2] ?? 0) });
process.stdout.write(`${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
