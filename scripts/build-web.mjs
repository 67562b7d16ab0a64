// Builds the browser client into dist/web: minified bundles with hashed names under assets/ (cached for a
// year by serve), index.html naming them, the web app manifest and icons, and a .gz and .br beside each
// text file so that serve sends them precompressed. Runs as `node scripts/build-web.mjs` or imported.
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, crc32, deflateSync, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const THEME = '#1f5fae';

/** A square PNG of the app icon (the clock of icon.svg), drawn pixel by pixel: no image tool needed. */
function iconPng(size) {
  const row = size * 4 + 1;
  const pixels = Buffer.alloc(row * size);
  const centre = size / 2;
  const radius = size * 0.33;
  const ring = size * 0.04;
  for (let y = 0; y < size; y++) {
    pixels[y * row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const dx = x + 0.5 - centre;
      const dy = y + 0.5 - centre;
      const distance = Math.hypot(dx, dy);
      const onRing = Math.abs(distance - radius) < ring;
      const onHand = (Math.abs(dx) < ring && dy < 0 && dy > -radius * 0.65) || (Math.abs(dy) < ring && dx > 0 && dx < radius * 0.5);
      const white = onRing || onHand;
      const offset = y * row + 1 + x * 4;
      pixels[offset] = white ? 255 : 0x1f;
      pixels[offset + 1] = white ? 255 : 0x5f;
      pixels[offset + 2] = white ? 255 : 0xae;
      pixels[offset + 3] = 255;
    }
  }
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function indexHtml(script, style, preloads) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="theme-color" content="${THEME}">
<meta name="description" content="timetrack: track working time, overtime and absences on your own server">
<title>timetrack</title>
<link rel="manifest" href="/manifest.webmanifest">
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/icon-192.png">
<link rel="stylesheet" href="/${style}">
<script type="module" src="/${script}"></script>
${preloads.map((file) => `<link rel="modulepreload" href="/${file}">\n`).join('')}
</head>
<body>
<div id="app"></div>
<noscript>timetrack needs JavaScript.</noscript>
</body>
</html>
`;
}

const manifest = {
  name: 'timetrack',
  short_name: 'timetrack',
  description: 'Track working time, overtime and absences',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  background_color: '#f7f7f5',
  theme_color: THEME,
  icons: [
    { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' },
    { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
    { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any maskable' },
  ],
};

const COMPRESSIBLE = /\.(html|js|css|svg|webmanifest|txt)$/;

/** favicon.ico for browsers and tools that ask for it: an ICO container holding one 32×32 PNG. */
function faviconIco() {
  const png = iconPng(32);
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header[6] = 32; // width
  header[7] = 32; // height
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18); // offset of the image
  return Buffer.concat([header, png]);
}

/** A private time tracker has nothing for search engines. */
const ROBOTS = 'User-agent: *\nDisallow: /\n';

async function filesUnder(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}

/** Writes dist/web from src/web; returns the file names of the entry script and style sheet. */
export async function buildWeb({ root = ROOT } = {}) {
  const out = path.join(root, 'dist/web');
  await rm(out, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/web/main.tsx'],
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    target: ['es2022', 'chrome109', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: path.join(out, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const relative = (file) => path.relative(out, path.resolve(root, file)).split(path.sep).join('/');
  const [script] = outputs.find(([, meta]) => meta.entryPoint === 'src/web/main.tsx') ?? [];
  const [style] = outputs.find(([file]) => file.endsWith('.css')) ?? [];
  if (!script || !style) throw new Error('build-web: esbuild produced no entry script or style sheet');
  // The chunks the entry imports statically load in parallel with it, not one round trip later.
  const preloads = result.metafile.outputs[script].imports
    .filter((imported) => imported.kind === 'import-statement')
    .map((imported) => relative(imported.path));

  await writeFile(path.join(out, 'index.html'), indexHtml(relative(script), relative(style), preloads));
  await writeFile(path.join(out, 'manifest.webmanifest'), JSON.stringify(manifest, null, 2));
  await writeFile(path.join(out, 'icon.svg'), await readFile(path.join(root, 'src/web/icon.svg')));
  await writeFile(path.join(out, 'icon-192.png'), iconPng(192));
  await writeFile(path.join(out, 'icon-512.png'), iconPng(512));
  await writeFile(path.join(out, 'favicon.ico'), faviconIco());
  await writeFile(path.join(out, 'robots.txt'), ROBOTS);

  for (const file of await filesUnder(out)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const content = await readFile(file);
    await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }));
    await writeFile(
      `${file}.br`,
      brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
    );
  }
  return { script: relative(script), style: relative(style) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildWeb();
}
