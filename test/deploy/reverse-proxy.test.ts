// The reverse-proxy examples agree with the settings they ask for: the address they proxy to is the
// default HOST:PORT, they serve TLS, and the TRUST_PROXY and PUBLIC_URL they name are accepted.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { PROJECT_ROOT } from '../support/cli.js';

const examples = ['config/Caddyfile.example', 'config/nginx.example.conf'].map((file) => [file, fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8')] as const);

describe.each(examples)('%s', (_file, text) => {
  it('proxies to the default address, with TLS, and names settings timetrack accepts', () => {
    const config = loadConfig({});
    expect(text).toContain(`${config.host}:${config.port}`);
    const publicUrl = /PUBLIC_URL=(\S+)/.exec(text)?.[1];
    const trustProxy = /TRUST_PROXY=(\S+)/.exec(text)?.[1];
    const proxied = loadConfig({ PUBLIC_URL: publicUrl, TRUST_PROXY: trustProxy });
    expect(proxied.publicUrl).toMatch(/^https:\/\//);
    expect(proxied.trustProxy).toEqual([config.host]);
    expect(text).toContain(new URL(proxied.publicUrl).hostname);
    if (text.includes('server {')) {
      expect(text).toMatch(/listen 443 ssl/);
      expect(text).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    }
  });
});
