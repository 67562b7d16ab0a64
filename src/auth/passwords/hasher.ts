// argon2id hashing with a bound on how many computations run at once. Each one takes ~45 ms of a
// libuv thread and 19 MiB; without the bound a login flood takes every thread (starving
// the file system) and memory grows with the flood. Past the queue limit callers get BUSY.
import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import { ServiceError } from '../../common/errors.js';

/** OWASP's minimum for argon2id: 19 MiB, 2 iterations, 1 lane. */
export const ARGON2_PARAMETERS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * An argon2id hash, at ARGON2_PARAMETERS, of a random password that was thrown away: what a sign-in of
 * an unknown account is verified against, so that it costs the time of a known one. It is no secret
 * (no password verifies against it, and nothing signs in through it); written here once rather than
 * computed by every process at its start (two argon2 computations, ~40 ms of CPU and 19 MiB, per
 * `serve` start). test/auth/password-hashes.test.ts checks that its parameters are ARGON2_PARAMETERS.
 */
export const ARGON2_DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$IHapZGhxTCjagl9iEsK03g$KHYw91X1sbfK6HkvE99tsEl+lU2kQ4zqOls05N/uEx8';

/** How a password becomes a stored hash. argon2id in every command; tests of other subjects inject a fast one. */
export interface PasswordAlgorithm {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a malformed stored hash; never throws for either. */
  verify(hash: string, password: string): Promise<boolean>;
  /** True when the stored hash should be replaced by a new one (weaker parameters, another algorithm). */
  needsRehash(hash: string): boolean;
}

export const argon2id: PasswordAlgorithm = {
  hash: (password) => argon2.hash(password, ARGON2_PARAMETERS),
  async verify(hash, password) {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false; // a malformed stored hash never verifies
    }
  },
  // argon2's own check ignores the variant, so another variant than argon2id is checked here.
  needsRehash(hash) {
    if (!hash.startsWith('$argon2id$')) return true;
    try {
      return argon2.needsRehash(hash, ARGON2_PARAMETERS);
    } catch {
      return true;
    }
  },
};

/**
 * Who waits for a hash. Sign-in (login, register, reset) and account changes of a signed-in user
 * (change-password) each have their own share of the queue, and a free slot alternates between the
 * two lanes when both wait: one account cannot starve everyone's sign-in by keeping the queue full,
 * and a sign-in flood cannot keep a password change waiting behind the whole flood.
 */
export type HashLane = 'sign-in' | 'account';

/** The size of the account lane's own queue, as a share of HASH_QUEUE_LIMIT (at least one waiter). */
const ACCOUNT_LANE_QUEUE_SHARE = 0.25;

export interface PasswordHasherOptions {
  concurrency: number;
  queueLimit: number;
  algorithm?: PasswordAlgorithm;
}

export class PasswordHasher {
  #running = 0;
  #verifications = 0;
  readonly #waiting: Record<HashLane, Array<() => void>> = { 'sign-in': [], account: [] };
  #dummyHash: Promise<string> | undefined;

  readonly #algorithm: PasswordAlgorithm;

  constructor(private readonly options: PasswordHasherOptions) {
    this.#algorithm = options.algorithm ?? argon2id;
    if (this.#algorithm === argon2id) this.#dummyHash = Promise.resolve(ARGON2_DUMMY_HASH);
  }

  hash(password: string, lane: HashLane = 'sign-in'): Promise<string> {
    return this.#bounded(() => this.#algorithm.hash(password), lane);
  }

  verify(hash: string, password: string, lane: HashLane = 'sign-in'): Promise<boolean> {
    this.#verifications += 1;
    return this.#bounded(() => this.#algorithm.verify(hash, password), lane);
  }

  /**
   * Verification against a hash of a random password, so that an unknown account costs
   * the same time as a known one.
   */
  async verifyAgainstDummy(password: string): Promise<false> {
    this.#dummyHash ??= this.hash(randomBytes(32).toString('base64url'));
    await this.verify(await this.#dummyHash, password);
    return false;
  }

  /**
   * Has the dummy hash ready (serve calls this at start, so the first unknown login is not faster): with
   * argon2id it is ARGON2_DUMMY_HASH; an injected algorithm's is computed now.
   */
  async warmUp(): Promise<void> {
    await (this.#dummyHash ??= this.hash(randomBytes(32).toString('base64url')));
  }

  needsRehash(hash: string): boolean {
    return this.#algorithm.needsRehash(hash);
  }

  /** Password verifications asked for since start (what the lockout bounds per lock window). */
  get verifications(): number {
    return this.#verifications;
  }

  get inFlight(): number {
    return this.#running;
  }

  /** The lane whose waiter got the last free slot: the next one goes to the other lane if it waits. */
  #lastServed: HashLane = 'account';

  /** Sign-in may fill HASH_QUEUE_LIMIT; account changes have their own queue of a quarter of it beside it. */
  #queueLimit(lane: HashLane): number {
    const { queueLimit } = this.options;
    return lane === 'sign-in' ? queueLimit : Math.min(queueLimit, Math.max(1, Math.floor(queueLimit * ACCOUNT_LANE_QUEUE_SHARE)));
  }

  #nextWaiter(): (() => void) | undefined {
    const order: HashLane[] = this.#lastServed === 'sign-in' ? ['account', 'sign-in'] : ['sign-in', 'account'];
    for (const lane of order) {
      const next = this.#waiting[lane].shift();
      if (next) {
        this.#lastServed = lane;
        return next;
      }
    }
    return undefined;
  }

  async #bounded<T>(task: () => Promise<T>, lane: HashLane): Promise<T> {
    if (this.#running >= this.options.concurrency) {
      if (this.#waiting[lane].length >= this.#queueLimit(lane)) {
        throw new ServiceError('BUSY', 'The server is busy; try again shortly', 1);
      }
      await new Promise<void>((resolve) => this.#waiting[lane].push(resolve));
    } else {
      this.#running += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.#nextWaiter();
      // A waiter takes over this slot; the count only drops when nobody waits.
      if (next) next();
      else this.#running -= 1;
    }
  }
}
