// The parsers of the settings: defaults and bounds come from the table of src/config/settings.ts. A bad
// value throws a ConfigError whose message is one line naming the setting.
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { SETTINGS, type SettingName, type SettingOf } from './settings.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Record<string, string | undefined>;

export interface SmtpConfig {
  host: string;
  port: number;
  user: string | undefined;
  password: string | undefined;
  from: string;
}

const DAY = 86_400;
// Names proxy-addr (Fastify's trustProxy) understands besides addresses.
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
// A host name (RFC 1123 labels) or an IP address.
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const MIN_SECRET_BYTES = 32;

/** A setting's value, with an empty or blank one meaning "unset" (as `NAME=` in an env file). */
export function valueOf(env: Env, name: SettingName): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw;
}

/** Parses a duration: a whole number of seconds, or a number followed by s, m, h or d. */
export function parseDuration(value: string): number | undefined {
  const match = /^(\d+)([smhd]?)$/.exec(value.trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = match[2] || 's';
  const factor = { s: 1, m: 60, h: 3600, d: 86400 }[unit as 's' | 'm' | 'h' | 'd'];
  const seconds = amount * factor;
  return seconds > 0 && Number.isSafeInteger(seconds) ? seconds : undefined;
}

export function fail(name: string, problem: string): never {
  throw new ConfigError(`${name}: ${problem}`);
}

/** A duration up to its maxSeconds: beyond it dates overflow or timers misfire (Node runs a timer over ~24.8 days at once). */
export function durationSetting(env: Env, name: SettingOf<'duration'>): number {
  const { default: fallback, maxSeconds } = SETTINGS[name];
  const raw = valueOf(env, name) ?? fallback;
  const seconds = parseDuration(raw);
  if (seconds === undefined) {
    fail(name, `"${raw}" is not a duration (use seconds, or a number with s, m, h or d, e.g. 15m)`);
  }
  if (seconds > maxSeconds) fail(name, `"${raw}" is too long (at most ${maxSeconds / DAY}d)`);
  return seconds;
}

export function integerSetting(env: Env, name: SettingOf<'integer'>): number {
  const spec: { default: number | (() => number); min: number; max: number } = SETTINGS[name];
  const { min, max } = spec;
  const raw = valueOf(env, name);
  if (raw === undefined) return typeof spec.default === 'function' ? spec.default() : spec.default;
  if (!/^\d+$/.test(raw.trim())) fail(name, `"${raw}" is not a whole number`);
  const value = Number(raw.trim());
  if (value < min || value > max) fail(name, `${value} is out of range (${min} to ${max})`);
  return value;
}

function parseBoolean(raw: string, name: SettingName): boolean {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(value)) return true;
  if (['false', '0', 'no', ''].includes(value)) return false;
  fail(name, `"${raw}" is not true or false`);
}

export function booleanSetting(env: Env, name: SettingOf<'boolean'>): boolean {
  return parseBoolean(valueOf(env, name) ?? String(SETTINGS[name].default), name);
}

/** One of the setting's choices, without regard to case: "a or b", or "one of a, b, c" when it is not. */
export function choiceSetting(env: Env, name: 'REGISTRATION' | 'LOG_LEVEL'): string {
  const { default: fallback, choices } = SETTINGS[name];
  const value = (valueOf(env, name) ?? fallback).trim().toLowerCase();
  if (!(choices as readonly string[]).includes(value)) {
    fail(name, `"${value}" is not ${(choices as readonly string[]).length === 2 ? choices.join(' or ') : `one of ${choices.join(', ')}`}`);
  }
  return value;
}

/** NODE_ENV: checked, but it no longer turns on dev mode (only `serve --dev` does). */
export function checkNodeEnv(env: Env): void {
  const nodeEnv = (valueOf(env, 'NODE_ENV') ?? SETTINGS.NODE_ENV.default).trim();
  if (!(SETTINGS.NODE_ENV.choices as readonly string[]).includes(nodeEnv)) fail('NODE_ENV', `"${nodeEnv}" is not production or development`);
}

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = net.isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

export function parseTrustProxy(raw: string | undefined): boolean | string[] {
  if (raw === undefined) return parseBoolean(SETTINGS.TRUST_PROXY.default, 'TRUST_PROXY');
  const trimmed = raw.trim().toLowerCase();
  if (['true', 'false', '1', '0', 'yes', 'no'].includes(trimmed)) return parseBoolean(raw, 'TRUST_PROXY');
  const addresses = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const address of addresses) {
    if (!isProxyAddress(address)) {
      fail('TRUST_PROXY', `"${address}" is not true, false, an IP address, a CIDR range or one of ${PROXY_RANGE_NAMES.join(', ')}`);
    }
  }
  return addresses;
}

/** `host:port` (`[::1]:9464` for IPv6) of the metrics listener; unset: no metrics. */
export function parseListen(raw: string | undefined): { host: string; port: number } | undefined {
  if (raw === undefined) return undefined;
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(raw.trim());
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (!match || host === undefined || port > 65535 || (net.isIP(host) === 0 && !HOST_NAME.test(host))) {
    fail('METRICS_LISTEN', `"${raw}" is not host:port (e.g. 127.0.0.1:9464)`);
  }
  return { host, port };
}

export function parseHost(raw: string): string {
  const host = raw.trim();
  if (net.isIP(host) === 0 && !HOST_NAME.test(host)) fail('HOST', `"${host}" is not an IP address or a host name`);
  return host;
}

/** A loopback address, or `localhost`: only this machine can reach it. */
export function isLoopback(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  return ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback';
}

/** A secret setting (JWT_SECRET, SECRET_KEY): its UTF-8 bytes, at least 32 of them and not repetitive. */
export function parseSecret(raw: string | undefined, name: 'JWT_SECRET' | 'SECRET_KEY' = 'JWT_SECRET'): Uint8Array | undefined {
  if (raw === undefined) return undefined;
  const bytes = new TextEncoder().encode(raw);
  if (bytes.length < MIN_SECRET_BYTES) {
    fail(name, `must be at least ${MIN_SECRET_BYTES} bytes (got ${bytes.length}); leave it unset to have one generated`);
  }
  if (new Set(raw).size < 8) fail(name, 'is too repetitive to be a random secret');
  return bytes;
}

export function parseSmtp(env: Env): SmtpConfig | undefined {
  // Checked even without SMTP_HOST: a half-done mail set-up must not silently send nothing.
  const port = integerSetting(env, 'SMTP_PORT');
  const host = valueOf(env, 'SMTP_HOST')?.trim();
  const user = valueOf(env, 'SMTP_USER');
  const password = valueOf(env, 'SMTP_PASSWORD');
  const from = valueOf(env, 'SMTP_FROM')?.trim();
  if (!host) {
    const stray = (['SMTP_PORT', 'SMTP_USER', 'SMTP_PASSWORD', 'SMTP_FROM'] as const).find((name) => valueOf(env, name) !== undefined);
    if (stray) fail('SMTP_HOST', `must be set when ${stray} is set`);
    return undefined;
  }
  if (net.isIP(host) === 0 && !HOST_NAME.test(host)) fail('SMTP_HOST', `"${host}" is not an IP address or a host name`);
  if (!from) fail('SMTP_FROM', 'must be set when SMTP_HOST is set');
  if (!/^[^\s@<>]+@[^\s@<>]+$|<[^\s@<>]+@[^\s@<>]+>$/.test(from)) fail('SMTP_FROM', `"${from}" is not an e-mail address (or "Name <address>")`);
  if (password !== undefined && user === undefined) fail('SMTP_PASSWORD', 'is set but SMTP_USER is not');
  return { host, port, user, password, from };
}

export function parsePublicUrl(raw: string | undefined, host: string, port: number): string {
  const value = raw?.trim() || `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail('PUBLIC_URL', `"${value}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('PUBLIC_URL', 'must start with http:// or https://');
  // The reset link is PUBLIC_URL + "/password-reset?token=…": a query, fragment or credentials would break or leak it.
  if (url.search || url.hash || value.includes('?') || value.includes('#')) fail('PUBLIC_URL', 'must not have a query string or a fragment');
  if (url.username || url.password) fail('PUBLIC_URL', 'must not contain a user name or password');
  return value.replace(/\/+$/, '');
}
