// Preloaded with `node --import` by the start-up test: at exit, prints the npm packages the process
// loaded (CommonJS ones, which is what fastify, its plugins and nodemailer are) on stderr.
import { createRequire } from 'node:module';

const cache = createRequire(import.meta.url).cache;
process.on('exit', () => {
  const packages = new Set();
  for (const file of Object.keys(cache)) {
    const inside = file.split('/node_modules/').pop();
    if (inside === file) continue;
    const parts = inside.split('/');
    packages.add(parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
  }
  process.stderr.write(`LOADED_PACKAGES ${JSON.stringify([...packages].sort())}\n`);
});
