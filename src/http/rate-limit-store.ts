// @fastify/rate-limit gives every route its own in-memory counter. The contract's limit is one budget
// per client address across the four auth routes (an attacker must not get four budgets), so every
// route shares this one store. Bounded: the least recently counted addresses are dropped first.
import ipaddr from 'ipaddr.js';

interface Window {
  current: number;
  startedAt: number;
}

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** The auth limit is per minute (docs/configuration.md); the plugin passes the route's window at run time. */
const DEFAULT_WINDOW_MS = 60_000;

export const RATE_LIMIT_TRACKED_ADDRESSES = 10_000;

/**
 * The client a request counts against: its IPv4 address, or the /64 of its IPv6 address (one
 * subscriber gets a whole /64, so counting single IPv6 addresses would give it 2^64 budgets).
 */
export function rateLimitKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address); // an IPv4-mapped IPv6 address counts as its IPv4 address
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}

export class SharedRateLimitStore {
  readonly #windows = new Map<string, Window>();

  incr(key: string, callback: IncrCallback, timeWindow: number = DEFAULT_WINDOW_MS): void {
    const now = Date.now();
    let window = this.#windows.get(key);
    if (!window || window.startedAt + timeWindow <= now) window = { current: 0, startedAt: now };
    window.current += 1;
    // Re-inserting keeps the Map in least-recently-counted order.
    this.#windows.delete(key);
    this.#windows.set(key, window);
    if (this.#windows.size > RATE_LIMIT_TRACKED_ADDRESSES) {
      const oldest = this.#windows.keys().next().value;
      if (oldest !== undefined) this.#windows.delete(oldest);
    }
    callback(null, { current: window.current, ttl: window.startedAt + timeWindow - now });
  }

  child(): SharedRateLimitStore {
    return this;
  }
}
