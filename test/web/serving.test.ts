// How serve answers the browser client's files (docs/web-client.md, "Security headers" and "Caching").
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webRoutes } from '../../src/http/web/routes.js';
import { PROJECT_ROOT } from '../support/cli.js';
import { createTestApp, makeTempDir, type TestApp } from '../support/app.js';

const WEB_ROOT = path.join(PROJECT_ROOT, 'dist/web');

describe('the built client (npm run build wrote dist/web)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const assetNamed = (pattern: RegExp) => {
    const name = fs.readdirSync(path.join(WEB_ROOT, 'assets')).find((file) => pattern.test(file));
    if (!name) throw new Error(`no asset matches ${pattern}`);
    return `/assets/${name}`;
  };

  it.each(['/', '/login', '/register', '/password-forgot', '/password-reset?token=abc', '/anything/else'])(
    'GET %s answers the HTML with the strict headers',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('<div id="app"></div>');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      const csp = String(response.headers['content-security-policy']);
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
      ]) {
        expect(csp).toContain(directive);
      }
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    },
  );

  it('the HTML has no inline script or style, and names only same-origin files', async () => {
    const html = (await t.app.inject({ method: 'GET', url: '/login' })).body;
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|style=/);
    for (const [, url] of html.matchAll(/(?:src|href)="([^"]+)"/g)) expect(url).toMatch(/^\/[^/]/);
  });

  it('hashed assets are immutable for a year and sent precompressed (brotli, then gzip)', async () => {
    const script = assetNamed(/^main-.*\.js$/);
    const brotli = await t.app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': 'br, gzip' } });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    const gzip = await t.app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await t.app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(fs.readFileSync(path.join(WEB_ROOT, script)).toString());
  });

  it('the manifest and icons are served and not cached as immutable', async () => {
    const manifest = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    const icons = (JSON.parse(manifest.body) as { icons: { src: string }[] }).icons;
    for (const icon of icons) expect((await t.app.inject({ method: 'GET', url: icon.src })).statusCode).toBe(200);
  });

  it('robots.txt disallows everything and favicon.ico is an icon: neither is the HTML of the client', async () => {
    const robots = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.body).toBe('User-agent: *\nDisallow: /\n');
    const favicon = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['content-type']).toMatch(/icon/);
    expect(favicon.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  });

  it('every file that may be sent precompressed carries Vary: Accept-Encoding', async () => {
    for (const url of ['/login', assetNamed(/^main-.*\.js$/), assetNamed(/\.css$/), '/manifest.webmanifest', '/robots.txt']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(response.headers.vary, url).toMatch(/Accept-Encoding/);
    }
  });

  it('the HTML has a description', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/login' })).body).toMatch(/<meta name="description" content="[^"]+">/);
  });

  it('an unknown asset is a 404, and /api keeps its JSON 404 for every method', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/assets/main-NOPE.js' })).statusCode).toBe(404);
    for (const method of ['GET', 'POST'] as const) {
      const response = await t.app.inject({ method, url: '/api/no-such-route' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api' })).json()).toMatchObject({ code: 'NOT_FOUND' });
    // Only GET (and HEAD) answers the client: another method on a client path is the JSON 404.
    expect((await t.app.inject({ method: 'POST', url: '/login' })).json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await t.app.inject({ method: 'HEAD', url: '/login' })).statusCode).toBe(200);
  });

  it('a path outside the asset folder is never read from disk', async () => {
    for (const url of ['/assets/../../package.json', '/assets/%2e%2e%2fpackage.json', '/index.html.br']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.body).not.toContain('"dependencies"');
    }
  });
});

describe('without dist/web (compiled with tsc alone)', () => {
  it('answers one clear line of text instead of crashing, and /api stays JSON', async () => {
    const app = Fastify();
    await app.register(webRoutes, { root: makeTempDir('timetrack-no-web-') });
    const page = await app.inject({ method: 'GET', url: '/login' });
    expect(page.statusCode).toBe(503);
    expect(page.headers['content-type']).toMatch(/^text\/plain/);
    expect(page.body.trim().split('\n')).toHaveLength(1);
    expect(page.body).toMatch(/not built.*npm run build/);
    const api = await app.inject({ method: 'GET', url: '/api/nothing' });
    expect(api.json()).toMatchObject({ code: 'NOT_FOUND' });
    await app.close();
  });
});
