// The hooks of every /api route tree, in one place: what a cache may keep of its answers. A route
// group never sets these headers itself; app.ts registers each group through `registerApiTree`,
// which names the group's caching here. The headers every answer carries (/api or not) are set by
// the request-start hook (security-headers.ts).
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';

/**
 * What a cache may do with a route tree's answers:
 * - `public`: nothing said here (/api/health, /api/ready);
 * - `private`: `Cache-Control: no-store`: the answers hold an account's data or a credential
 *   (/api/auth, /api/time-entries, /api/settings);
 * - `per-token`: `no-store` and `Vary: Authorization`: with a token the account's figures, without
 *   one the answers of the contract, from the same URL (/api/stats).
 */
export type Caching = 'public' | 'private' | 'per-token';

// Callback hooks with constant header names in lower case (how Fastify stores them): a hook costs a
// call on every request, an async one a promise and a microtask turn as well (docs/performance.md).
const noStore: onRequestHookHandler = (_request, reply, done) => {
  reply.header('cache-control', 'no-store');
  done();
};
const noStorePerToken: onRequestHookHandler = (_request, reply, done) => {
  reply.header('cache-control', 'no-store');
  reply.header('vary', 'Authorization');
  done();
};
const HOOK_OF: Record<Caching, onRequestHookHandler | undefined> = { public: undefined, private: noStore, 'per-token': noStorePerToken };

/**
 * Registers a route group under `prefix` in a context of its own whose first hook sets the caching
 * headers as the request starts: every answer of the group carries them (errors, 401s of its session
 * check, 429s, the answers of its own not-found handler), and nothing outside the group does.
 */
export async function registerApiTree<Options extends object>(
  app: FastifyInstance,
  prefix: string,
  caching: Caching,
  routes: FastifyPluginAsyncTypebox<Options>,
  options: Options,
): Promise<void> {
  await app.register(
    async (tree) => {
      const hook = HOOK_OF[caching];
      if (hook) tree.addHook('onRequest', hook);
      await tree.withTypeProvider<TypeBoxTypeProvider>().register(routes, options);
    },
    { prefix },
  );
}

/** The instance a route plugin of a tree registers its routes on (TypeBox's type provider). */
export type ApiInstance = Parameters<FastifyPluginAsyncTypebox>[0];
