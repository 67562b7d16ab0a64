// `npm run build`: everything the executable and the browser client need, with esbuild. The CLI is one
// ES module bundle (dist/cli/main.js) whose server-only parts are separate chunks loaded on first use;
// the native modules (better-sqlite3, argon2), pino-pretty (resolved by name at run time) and pdfkit with
// its font package (files read at run time) stay outside it. Types are checked by `npm run typecheck`, not here: tsc emits nothing.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The commit being built, `+dirty` when the checkout has changes; `unknown` outside git. `--version` and /api/health show it. */
function commitOfCheckout() {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return dirty ? `${commit}+dirty` : commit;
  } catch {
    return 'unknown';
  }
}

// Chunks are named by their content: without this, every build would leave the last one's beside it,
// and the release would ship them.
fs.rmSync(path.join(ROOT, 'dist/cli'), { recursive: true, force: true });

await build({
  absWorkingDir: ROOT,
  // The PDF worker (src/time/timesheet/pdf-worker.ts) beside main.js: `serve` starts it at its start.
  entryPoints: { main: 'src/cli/main.ts', 'pdf-worker': 'src/time/timesheet/pdf-worker.ts' },
  outdir: 'dist/cli',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  minifyWhitespace: true,
  minifySyntax: true,
  // pdfkit reads its own data files (and the DejaVu font package its fonts) from node_modules at run time.
  external: ['better-sqlite3', 'argon2', 'pino-pretty', 'pg-native', 'pdfkit', 'dejavu-fonts-ttf'],
  // Bundled CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  define: { __TIMETRACK_COMMIT__: JSON.stringify(commitOfCheckout()) },
  logLevel: 'warning',
});

// The browser client, once its build script exists.
const webBuild = path.join(ROOT, 'scripts/build-web.mjs');
if (fs.existsSync(webBuild)) {
  const { buildWeb } = await import(pathToFileURL(webBuild).href);
  await buildWeb();
}
