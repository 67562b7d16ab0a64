// The reverse-proxy examples agree with the settings they ask for: the address they proxy to is the
// default HOST:PORT, they serve TLS, and the TRUST_PROXY and PUBLIC_URL they name are accepted.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { makeTempDir } from '../support/app.js';
import { PROJECT_ROOT } from '../support/cli.js';

const examples = ['config/Caddyfile.example', 'config/nginx.example.conf'].map(
  (file) => [file, fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8')] as const,
);

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

const nginx = (() => {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.runIf(nginx)('config/nginx.example.conf with the installed nginx', () => {
  it('passes nginx -t (Debian 12 ships nginx 1.22), with a throwaway certificate in place of the real one', () => {
    const dir = makeTempDir('timetrack-nginx-');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=time.example.org',
        '-keyout',
        path.join(dir, 'privkey.pem'),
        '-out',
        path.join(dir, 'fullchain.pem'),
      ],
      { stdio: 'ignore' },
    );
    const site = fs.readFileSync(path.join(PROJECT_ROOT, 'config/nginx.example.conf'), 'utf8').replaceAll('/etc/letsencrypt/live/time.example.org/', `${dir}/`);
    fs.writeFileSync(path.join(dir, 'site.conf'), site);
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  client_body_temp_path ${dir};\n  proxy_temp_path ${dir};\n  fastcgi_temp_path ${dir};\n  uwsgi_temp_path ${dir};\n  scgi_temp_path ${dir};\n  include ${dir}/site.conf;\n}\n`,
    );
    const result = spawnSync('nginx', ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf')], { encoding: 'utf8' });
    expect(result.stderr).toMatch(/test is successful/);
    expect(result.status).toBe(0);
  });
});

describe('the docs and examples agree on X-Forwarded-For', () => {
  it("every nginx snippet replaces it with $remote_addr; none appends the client's", () => {
    const files = [
      'README.md',
      ...fs
        .readdirSync(path.join(PROJECT_ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
      'config/nginx.example.conf',
    ];
    for (const file of files) {
      const text = fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
      expect(text, file).not.toContain('$proxy_add_x_forwarded_for;');
      for (const [, value] of text.matchAll(/proxy_set_header X-Forwarded-For (\S+);/g)) expect(value, file).toBe('$remote_addr');
    }
  });
});

describe('config/timetrack@.service and config/nginx.example.conf agree', () => {
  it("the instance ports the template unit's env files set are the ones the nginx example lists for them", () => {
    const unit = fs.readFileSync(path.join(PROJECT_ROOT, 'config/timetrack@.service'), 'utf8');
    const site = fs.readFileSync(path.join(PROJECT_ROOT, 'config/nginx.example.conf'), 'utf8');
    const ports = [...unit.matchAll(/PORT=(\d+)\\n/g)].map((match) => match[1]);
    expect(ports).toEqual(['8081', '8082']);
    for (const port of ports) expect(site).toMatch(new RegExp(`^\\s*#? ?server 127\\.0\\.0\\.1:${port};`, 'm'));
    // One setting per line: what the unit shows is what an env file may hold (docs/configuration.md).
    for (const [, text] of unit.matchAll(/printf '([^']*)' > \/etc\/timetrack\/\w+\.env/g)) {
      for (const line of text!.split('\\n').filter(Boolean)) expect(line).toMatch(/^[A-Z_]+=\S+$/);
    }
  });
});
