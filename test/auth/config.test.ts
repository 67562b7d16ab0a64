// The settings module (src/config/) against the example env file and the values it must accept.
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseDuration, SETTING_NAMES } from '../../src/config/index.js';
import { PROJECT_ROOT } from '../support/cli.js';

const exampleFile = fs.readFileSync(path.join(PROJECT_ROOT, 'config/timetrack.example.env'), 'utf8');
const configFolder = path.join(PROJECT_ROOT, 'src/config');
const configSource = fs
  .readdirSync(configFolder)
  .map((file) => fs.readFileSync(path.join(configFolder, file), 'utf8'))
  .join('\n');

describe('config/timetrack.example.env', () => {
  it('lists every setting that src/config/ reads, and nothing else', () => {
    const read = new Set([...configSource.matchAll(/(?:valueOf\(env, |Setting\(env, )'([A-Z0-9_]+)'/g)].map((m) => m[1]!));
    for (const name of ['SMTP_USER', 'SMTP_PASSWORD', 'SMTP_FROM', 'SMTP_HOST']) read.add(name);
    const listed = new Set([...exampleFile.matchAll(/^#?([A-Z0-9_]+)=/gm)].map((m) => m[1]!));
    expect([...listed].sort()).toEqual([...read].sort());
    expect([...listed].sort()).toEqual([...SETTING_NAMES].sort());
  });

  it("is all defaults but the service's database when used as is, and valid with its examples switched on", () => {
    expect(loadConfig(parseEnv(exampleFile))).toEqual({ ...loadConfig({}), database: { engine: 'sqlite', path: '/var/lib/timetrack/timetrack.db' } });
    // Every example but the PostgreSQL ones (DATABASE_URL and TIMETRACK_DB at once are refused).
    const uncommented = exampleFile.replace(/^#((?!DATABASE_)[A-Z_]+=.+)$/gm, '$1');
    const config = loadConfig(parseEnv(uncommented));
    expect(config.smtp).toMatchObject({ host: 'smtp.example.org', port: 587, from: 'timetrack <timetrack@example.org>' });
    expect(config.publicUrl).toBe('https://time.example.org');
    expect(config.jwtSecret).toBeUndefined();
    // The PostgreSQL examples, with TIMETRACK_DB commented out and a JWT_SECRET, as the file says.
    const postgres = loadConfig({
      ...parseEnv(exampleFile.replace(/^#(DATABASE_[A-Z_]+=.+)$/gm, '$1').replace(/^TIMETRACK_DB=.*$/m, '')),
      JWT_SECRET: STRONG_SECRET,
    });
    expect(postgres.database).toEqual({
      engine: 'postgres',
      url: 'postgres://timetrack:password@127.0.0.1:5432/timetrack',
      pool: { max: 10, connectTimeoutMs: 5000, statementTimeoutMs: 30_000, lockTimeoutMs: 5000 },
    });
  });
});

const STRONG_SECRET = 'k3J9v7QpX2mZr8Lw5Ns1Tb6Yc4Hd0Gf-e';

describe('the database setting', () => {
  it('TIMETRACK_DB (or --db) and DATABASE_URL (or --database-url) at once are refused with one sentence naming both', () => {
    expect(() => loadConfig({ TIMETRACK_DB: '/tmp/a.db', DATABASE_URL: 'postgres://u:p@localhost/db', JWT_SECRET: STRONG_SECRET })).toThrow(
      /DATABASE_URL: and TIMETRACK_DB are both set/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:p@localhost/db', JWT_SECRET: STRONG_SECRET }, { dbPath: '/tmp/a.db' })).toThrow(
      /DATABASE_URL: and --db are both set/,
    );
    expect(() => loadConfig({ TIMETRACK_DB: '/tmp/a.db', JWT_SECRET: STRONG_SECRET }, { databaseUrl: 'postgres://u:p@localhost/db' })).toThrow(
      /--database-url: and TIMETRACK_DB are both set/,
    );
  });

  it('PostgreSQL needs JWT_SECRET: a generated secret file cannot be shared between machines', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:p@localhost/db' })).toThrow(/JWT_SECRET: must be set with DATABASE_URL/);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@localhost/db', JWT_SECRET: STRONG_SECRET }).database.engine).toBe('postgres');
  });

  it('refuses a DATABASE_URL that is not a PostgreSQL URL, and bad pool settings, naming each', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u@h/db', JWT_SECRET: STRONG_SECRET })).toThrow(/DATABASE_URL: must start with postgres:\/\//);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h', JWT_SECRET: STRONG_SECRET })).toThrow(/DATABASE_URL: names no database/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db', JWT_SECRET: STRONG_SECRET, DATABASE_POOL_SIZE: '0', DATABASE_LOCK_TIMEOUT: 'soon' })).toThrow(
      /DATABASE_POOL_SIZE: 0 is out of range.*DATABASE_LOCK_TIMEOUT: "soon" is not a duration/,
    );
  });
});

describe('loadConfig', () => {
  it('has the defaults of the contract', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      dev: false,
      host: '127.0.0.1',
      port: 8080,
      jwtSecret: undefined,
      jwtExpirationSeconds: 86_400,
      lockoutAttempts: 5,
      lockoutDurationSeconds: 900,
      resetTokenTtlSeconds: 3600,
      rateLimitAuth: 30,
      trustProxy: false,
      registrationOpen: true,
      publicUrl: 'http://127.0.0.1:8080',
      smtp: undefined,
      logLevel: 'info',
    });
    expect(config.database).toEqual({ engine: 'sqlite', path: path.resolve('./data/timetrack.db') });
  });

  it.each([
    ['3600', 3600],
    ['90s', 90],
    ['15m', 900],
    ['24h', 86_400],
    ['7d', 604_800],
    [' 2h ', 7200],
  ])('reads the duration %j', (value, seconds) => {
    expect(parseDuration(value)).toBe(seconds);
    expect(loadConfig({ JWT_EXPIRATION: value }).jwtExpirationSeconds).toBe(seconds);
  });

  it('treats an empty value as unset', () => {
    const config = loadConfig({ JWT_SECRET: '', JWT_EXPIRATION: '', NODE_ENV: '', REGISTRATION: '', LOG_LEVEL: ' ', PORT: '' });
    expect(config).toMatchObject({ jwtSecret: undefined, jwtExpirationSeconds: 86_400, dev: false, registrationOpen: true, logLevel: 'info', port: 8080 });
  });

  it('accepts a strong JWT_SECRET as its bytes', () => {
    const secret = 'Zq3-wf9!pL0x_Rt7&uVb2Nc8@hYm4Ks6eJ';
    expect(Buffer.from(loadConfig({ JWT_SECRET: secret }).jwtSecret!).toString()).toBe(secret);
  });

  it.each([
    ['true', true],
    ['false', false],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, ::1, loopback', ['10.0.0.0/8', '::1', 'loopback']],
  ])('reads TRUST_PROXY=%j', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('builds PUBLIC_URL from HOST and PORT, and strips a trailing slash of an explicit one', () => {
    expect(loadConfig({ HOST: '::1', PORT: '9000' }).publicUrl).toBe('http://[::1]:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://example.org/time/' }).publicUrl).toBe('https://example.org/time');
  });

  it('turns on dev mode with the --dev override only, never from NODE_ENV', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).dev).toBe(false);
    expect(loadConfig({}, { dev: true }).dev).toBe(true);
  });

  it('refuses dev mode with TRUST_PROXY set, or a PUBLIC_URL that is https or not loopback', () => {
    for (const trust of ['true', '127.0.0.1', 'loopback'])
      expect(() => loadConfig({ TRUST_PROXY: trust }, { dev: true }), trust).toThrow(/^TRUST_PROXY: is set, and dev mode/);
    for (const url of ['https://localhost:8080', 'https://time.example.org', 'http://time.example.org', 'http://192.168.1.10:8080']) {
      expect(() => loadConfig({ PUBLIC_URL: url }, { dev: true }), url).toThrow(/^PUBLIC_URL: .* dev mode/);
      expect(loadConfig({ PUBLIC_URL: url }).dev).toBe(false);
    }
    for (const url of ['http://localhost:8080', 'http://127.0.0.1:9000/time', 'http://[::1]:8080'])
      expect(loadConfig({ PUBLIC_URL: url }, { dev: true }).dev).toBe(true);
  });

  it('refuses dev mode on an address other machines can reach, and allows it on loopback', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'time.example.org']) {
      expect(() => loadConfig({ HOST: host }, { dev: true }), host).toThrow(/^HOST: dev mode/);
      expect(loadConfig({ HOST: host }).dev).toBe(false);
    }
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost', '::ffff:127.0.0.1']) expect(loadConfig({ HOST: host }, { dev: true }).dev).toBe(true);
  });
});
