// Fastify's own schema compilers (Ajv for requests, fast-json-stringify for answers), keeping what they
// compiled for the whole process: an app built again in the same process (every test builds its own)
// reuses the functions instead of generating and compiling them again, most of the cost of an app. In
// serve, one app per process, nothing changes but a few kilobytes of keys.
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
interface RouteSchema {
  schema?: unknown;
  httpPart?: string;
}
type Compile = (route: RouteSchema) => unknown;
type Builder = (externalSchemas: unknown, options: unknown) => Compile;

/** Far above what the routes compile (one entry per distinct schema): past it nothing more is kept. */
const MAX_KEPT = 1000;

/**
 * The schema as JSON text, or undefined when it holds anything JSON does not carry exactly (a function,
 * a RegExp, an undefined value). Compiled from this text (and, per context, the same external schemas
 * and options), two schemas with the same text get the same function, and two different ones never do.
 */
function schemaKey(schema: unknown): string | undefined {
  return isPlain(schema) ? JSON.stringify(schema) : undefined;
}

/** Only what JSON carries exactly: null, booleans, finite numbers, strings, arrays and plain objects of those. */
function isPlain(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        // By index, not every(): a hole would be written as null, like a null that is there.
        for (let index = 0; index < value.length; index++) if (!isPlain(value[index])) return false;
        return true;
      }
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) return false;
      for (const key in value) if (!isPlain((value as Record<string, unknown>)[key])) return false;
      return true;
    }
    default:
      return false; // undefined, a function, a bigint, a symbol
  }
}

/**
 * Fastify lowercases the header names of a `headers` schema, but not for a compiler of one's own:
 * refuse what it would have changed instead of matching headers differently.
 */
function assertLowercaseHeaders(route: RouteSchema): void {
  if (route.httpPart !== 'headers' || typeof route.schema !== 'object' || route.schema === null) return;
  const { properties, required } = route.schema as { properties?: object; required?: unknown };
  const names = [...Object.keys(properties ?? {}), ...(Array.isArray(required) ? (required as string[]) : [])];
  const upper = names.find((name) => name !== name.toLowerCase());
  if (upper !== undefined) throw new Error(`headers schema: write the header name "${upper}" in lowercase`);
}

type Compiled = ((data: unknown) => unknown) & { errors?: unknown };

/**
 * A function that compiles its schema when it is first called, then is that compiled function: Ajv's
 * validator (Fastify reads its `errors` after a `false`) or fast-json-stringify's serializer. Compiling
 * every route's schemas was two fifths of the CPU a `serve` spent to start (about 270 ms), for routes
 * most processes never answer (docs/performance.md, "Deliberate optimisations").
 */
function compiledOnFirstUse(compileNow: () => unknown): Compiled {
  let real: Compiled | undefined;
  const compiled = () => {
    if (real === undefined) {
      real = compileNow() as Compiled;
      notYetCompiled.delete(compiled);
    }
    return real;
  };
  notYetCompiled.add(compiled);
  const onFirstUse: Compiled = (data) => {
    const fn = compiled();
    const result = fn(data);
    onFirstUse.errors = fn.errors;
    return result;
  };
  return onFirstUse;
}

/** The schemas handed out and not yet used: compileEverySchemaNow compiles them. */
const notYetCompiled = new Set<() => unknown>();

/** Compiles every schema an app of this process was given and has not used yet: a schema that cannot compile throws here (the tests call it on the whole app). */
export function compileEverySchemaNow(): void {
  for (const compile of [...notYetCompiled]) compile();
}

/**
 * A builder whose compilers share what they compiled, per context (the external schemas and options).
 * A schema it does not keep goes to a compiler of the app's own, as without sharing.
 */
function keeping(makeBuilder: () => Builder): Builder {
  const shared = makeBuilder();
  const contexts = new Map<string, { compile: Compile; compiled: Map<string, unknown> }>();
  return (externalSchemas, options) => {
    const contextKey = schemaKey([externalSchemas, options ?? null]);
    // Plugins or callbacks in the options, or too many contexts: this app's own compiler.
    if (contextKey === undefined || (contexts.size >= MAX_KEPT && !contexts.has(contextKey))) return makeBuilder()(externalSchemas, options);
    let context = contexts.get(contextKey);
    if (context === undefined) contexts.set(contextKey, (context = { compile: shared(externalSchemas, options), compiled: new Map() }));
    const { compile, compiled } = context;
    let own: Compile | undefined;
    return (route) => {
      assertLowercaseHeaders(route);
      const key = schemaKey(route.schema);
      const done = key === undefined ? undefined : compiled.get(key);
      if (done !== undefined) return done;
      if (key === undefined || compiled.size >= MAX_KEPT) return (own ??= makeBuilder()(externalSchemas, options))(route);
      // Compiled from a copy made of the key (the function depends on nothing but the key), at its
      // first use: a process compiles only the schemas of the routes it answers.
      const fresh = compiledOnFirstUse(() => compile({ ...route, schema: JSON.parse(key) as unknown }));
      compiled.set(key, fresh);
      return fresh;
    };
  };
}

/** For Fastify's `schemaController.compilersFactory`: one per process. */
export const keptCompilers: CompilersFactory = {
  buildValidator: keeping(() => AjvCompiler() as unknown as Builder) as unknown as CompilersFactory['buildValidator'],
  buildSerializer: keeping(() => SerializerSelector() as unknown as Builder) as unknown as CompilersFactory['buildSerializer'],
};
