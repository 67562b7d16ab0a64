// @fastify/rate-limit gives every route its own in-memory counter. The contract's limit is one budget
// per client address across the auth routes (an attacker must not get one budget per route), so
// every route shares this one store.
//
// IPv6: one subscriber gets a /64 at least, a /56 or a /48 often, so a client counts at three
// prefixes: its /64 (the route's budget), its /56 (4 times it) and its /48 (16 times it). Cycling
// through the /64s of one /56 or /48 therefore gains at most 4 or 16 budgets, not 2^16.
//
// Bounded without evicting (src/common/window-counter.ts): a live window is never dropped. When the
// store is full of live windows, a client without one is refused (429) until windows end: failing
// closed, since evicting would let a client that cycles addresses reset everyone's counts.
import ipaddr from 'ipaddr.js';
import { WindowCounter } from '../common/window-counter.js';

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** The auth limit is per minute (docs/configuration.md); the plugin passes the route's window at run time. */
const DEFAULT_WINDOW_MS = 60_000;

/** Windows kept at most (about 100 bytes each): then new clients are refused until windows end. */
export const RATE_LIMIT_TRACKED_WINDOWS = 50_000;

/** The wider IPv6 prefixes a /64 also counts under, with their budget as a multiple of the route's. */
export const IPV6_PREFIX_BUDGETS = [
  { prefix: 48, factor: 16 },
  { prefix: 56, factor: 4 },
] as const;

/**
 * The client a request counts against: its IPv4 address, or the /64 of its IPv6 address (one
 * subscriber gets a whole /64, so counting single IPv6 addresses would give it 2^64 budgets).
 */
export function rateLimitKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address); // an IPv4-mapped IPv6 address counts as its IPv4 address
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return prefixKey(parsed.toString(), 64);
}

function prefixKey(address: string, prefix: number): string {
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address}/${prefix}`).toString()}/${prefix}`;
}

/** The keys a request counts under, widest first, each with its budget. */
function countedKeys(key: string, max: number): Array<{ key: string; budget: number }> {
  const own = { key, budget: max };
  if (!key.endsWith('/64')) return [own];
  const address = key.slice(0, -3);
  if (!ipaddr.IPv6.isValid(address)) return [own];
  return [...IPV6_PREFIX_BUDGETS.map(({ prefix, factor }) => ({ key: prefixKey(address, prefix), budget: max * factor })), own];
}

export class SharedRateLimitStore {
  readonly #windows: WindowCounter;

  constructor(_options?: unknown, capacity = RATE_LIMIT_TRACKED_WINDOWS) {
    this.#windows = new WindowCounter(capacity);
  }

  /**
   * Counts the request under each of its keys, widest first. A key over its budget refuses the
   * request, and the narrower keys are not counted (nor created): a client cycling /64s inside a
   * spent /48 makes no new windows.
   */
  incr(key: string, callback: IncrCallback, timeWindow: number = DEFAULT_WINDOW_MS, max: number = Number.MAX_SAFE_INTEGER): void {
    const now = Date.now();
    let own = { current: 0, ttl: timeWindow };
    for (const counted of countedKeys(key, max)) {
      const hit = this.#windows.hit(counted.key, timeWindow, now);
      // Full of live windows: refused until one ends (at most one window from now).
      if (!hit) return callback(null, { current: max + 1, ttl: timeWindow });
      if (hit.count > counted.budget) return callback(null, { current: max + 1, ttl: hit.remainingMs });
      own = { current: hit.count, ttl: hit.remainingMs };
    }
    callback(null, own);
  }

  child(): SharedRateLimitStore {
    return this;
  }
}
