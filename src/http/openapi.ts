// The OpenAPI document of the API, served at /api/openapi.json (built from the route schemas), and
// the security entries route schemas name: one constant per kind, never a copy per route.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { packageVersion } from '../version.js';

/** The `security` of a route that takes a bearer token: a session or an API token (docs/api.md). */
export const BEARER: Array<Record<string, string[]>> = [{ bearerAuth: [] }];

/** The `security` of a route that answers with a token or without one (/api/stats). */
export const BEARER_OR_ANONYMOUS: Array<Record<string, string[]>> = [{ bearerAuth: [] }, {}];

/** Registers the document's generator; before the routes, whose schemas it collects as they are added. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'timetrack', version: packageVersion(), description: 'Self-hosted time tracking: accounts, sessions, time entries and statistics' },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
}

/** GET /api/openapi.json: the document, once every route is registered. */
export function serveOpenApi(app: FastifyInstance): void {
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
