// Counts hits per key in fixed windows (a window starts at a key's first hit and lasts windowMs),
// with a bounded number of keys. A live window is never dropped to make room: when every slot holds
// a window that has not ended, a new key gets no window and the caller refuses the request (fails
// closed). Evicting the oldest window instead would let anyone with enough addresses or accounts
// reset everyone else's counts, their own included.

interface Window {
  count: number;
  endsAt: number;
}

export interface Hit {
  /** Hits of the key in its current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  remainingMs: number;
}

/** How often a full table is searched through for windows that ended (the front is checked on every new key). */
const FULL_SWEEP_INTERVAL_MS = 1000;

export class WindowCounter {
  /** In the order the windows started: those that end first are at the front (for one window length). */
  readonly #windows = new Map<string, Window>();
  #lastFullSweep = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.#windows.size;
  }

  /** Counts a hit of `key`; undefined when the key has no window and there is no room for one. */
  hit(key: string, windowMs: number, now: number): Hit | undefined {
    let window = this.#windows.get(key);
    if (window && window.endsAt <= now) {
      this.#windows.delete(key);
      window = undefined;
    }
    if (!window) {
      if (this.#windows.size >= this.capacity && !this.#makeRoom(now)) return undefined;
      window = { count: 0, endsAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, remainingMs: window.endsAt - now };
  }

  /** Takes one hit of `key` back (a refused try that should not count); nothing without a live window. */
  unhit(key: string, now: number): void {
    const window = this.#windows.get(key);
    if (window && window.endsAt > now && window.count > 0) window.count -= 1;
  }

  /** The current count of `key` without counting a hit (0 without a live window). */
  peek(key: string, now: number): number {
    const window = this.#windows.get(key);
    return window && window.endsAt > now ? window.count : 0;
  }

  /** Drops windows that have ended: the front ones always, all of them at most once a second. */
  #makeRoom(now: number): boolean {
    for (const [key, window] of this.#windows) {
      if (window.endsAt > now) break;
      this.#windows.delete(key);
    }
    if (this.#windows.size < this.capacity) return true;
    if (now - this.#lastFullSweep < FULL_SWEEP_INTERVAL_MS) return false;
    this.#lastFullSweep = now;
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key);
    return this.#windows.size < this.capacity;
  }
}
