// /api/invitations (docs/api.md, "Invitations"; docs/teams.md, "Invitations"). Administering
// invitations takes a session (an API token: 403 FORBIDDEN_FOR_API_TOKEN); `can` decides the rest
// through the invitation service. Looking at and accepting a link takes no session: the token is the proof.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../composition-root.js';
import type { InvitationService, IssuedInvitation } from '../../teams/index.js';
import { requireAccountSession, sessionOf, type Authenticator } from '../authentication.js';
import { sendNotFound } from '../error-handler.js';
import { BEARER } from '../openapi.js';
import { errorResponses } from '../schemas.js';
import { actorOf } from '../actor.js';
import type { ApiInstance } from '../api-hooks.js';
import { checkedStartingZone, startInZone } from '../starting-zone.js';
import { LoginResponse, TwoFactorRequiredResponse, TwoFactorSetupRequiredResponse, challengeAnswer } from '../auth/schemas.js';
import {
  AcceptBody,
  InvitationBody,
  InvitationListResponse,
  InvitationParams,
  IssuedInvitationResponse,
  PreviewBody,
  PreviewResponse,
  ResendBody,
} from './schemas.js';

export interface InvitationRouteOptions {
  credentials: Authenticator;
  invitations: InvitationService;
  authentication: Services['authentication'];
  sessions: Services['sessions'];
  settings: Services['settings'];
  /** Route config that applies the per-address rate limit (empty when RATE_LIMIT_AUTH=0). */
  rateLimited: Record<string, unknown>;
}

export const invitationRoutes: FastifyPluginAsyncTypebox<InvitationRouteOptions> = async (app, options) => {
  const { credentials, invitations } = options;
  app.setNotFoundHandler(sendNotFound);
  // Administration: a session only; an API token is refused before its body is read (403
  // FORBIDDEN_FOR_API_TOKEN, as on every account-management route), and the rule refuses it again.
  const signedIn = { onRequest: requireAccountSession(credentials) };
  const schema = { tags: ['invitations'], security: BEARER };
  const inviter = (request: Parameters<typeof sessionOf>[0], language?: 'en' | 'de') => {
    const session = sessionOf(request);
    return { actor: actorOf(session), label: `user:${session.user.id}`, language };
  };
  const answer = (issued: IssuedInvitation) => ({
    invitation: { id: issued.id, email: issued.email, team_name: issued.teamName, role: issued.role, expires_at: issued.expiresAt.toISOString() },
    delivery: invitations.deliveryMode(),
    // Dev mode only: in production the link goes to the invited person's mailbox, never to the inviter.
    ...(invitations.deliveryMode() === 'terminal' ? { invite_url: issued.url } : {}),
  });

  app.get(
    '/',
    {
      ...signedIn,
      schema: { ...schema, description: 'The pending invitations you may administer.', response: { 200: InvitationListResponse, ...errorResponses(401, 403) } },
    },
    async (request) => ({ invitations: await invitations.list(actorOf(sessionOf(request))) }),
  );

  app.post(
    '/',
    {
      ...signedIn,
      schema: {
        ...schema,
        description: 'Invites a person into a team: an admin into any team with either role, a lead into a team it leads as member.',
        body: InvitationBody,
        response: { 201: IssuedInvitationResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { language, ...input } = request.body;
      return reply.code(201).send(answer(await invitations.create(inviter(request, language), input)));
    },
  );

  app.post(
    '/:id/resend',
    {
      ...signedIn,
      schema: {
        ...schema,
        description: 'A new link, valid INVITE_TTL from now; the earlier link stops working.',
        params: InvitationParams,
        body: ResendBody,
        response: { 200: IssuedInvitationResponse, ...errorResponses(400, 401, 403, 404, 410) },
      },
    },
    async (request) => answer(await invitations.resend(inviter(request, request.body?.language), request.params.id)),
  );

  app.delete(
    '/:id',
    { ...signedIn, schema: { ...schema, params: InvitationParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 410) } } },
    async (request, reply) => {
      await invitations.withdraw(inviter(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  acceptRoutes(app, options);
};

/** Looking at a link and accepting it: no session, the token is the proof; rate-limited per address like login. */
function acceptRoutes(app: ApiInstance, { invitations, authentication, sessions, settings, rateLimited }: InvitationRouteOptions): void {
  app.post(
    '/preview',
    {
      config: rateLimited,
      schema: {
        tags: ['invitations'],
        description: 'Whom a link invites, into which team; or why it no longer works.',
        body: PreviewBody,
        response: { 200: PreviewResponse, ...errorResponses(400, 410, 429) },
      },
    },
    async (request) => invitations.preview(request.body.token),
  );

  app.post(
    '/accept',
    {
      config: rateLimited,
      schema: {
        tags: ['invitations'],
        description: 'Creates the account of the invitation, puts it into the team, and signs in (the answer of POST /api/auth/login).',
        body: AcceptBody,
        response: {
          200: Type.Union([LoginResponse, TwoFactorRequiredResponse, TwoFactorSetupRequiredResponse]),
          ...errorResponses(400, 403, 409, 410, 429, 503),
        },
      },
    },
    async (request) => {
      const { token, password, full_name: fullName, timezone } = request.body;
      const zone = checkedStartingZone(timezone);
      const user = await invitations.accept(token, password, fullName);
      await startInZone(settings, user.id, zone);
      // Signed in as POST /api/auth/login would (REQUIRE_2FA: the set-up challenge instead of a token).
      const result = await authentication.login(user.email, request.body.password);
      if ('challenge' in result) return challengeAnswer(result.challenge);
      await sessions.recordClient(result.token, { clientAddress: request.ip, userAgent: request.headers['user-agent'] });
      return { token: result.token, token_type: 'Bearer' as const, expires_at: result.expiresAt.toISOString(), user: result.user };
    },
  );
}
