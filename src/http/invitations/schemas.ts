// Schemas of /api/invitations (docs/api.md, "Invitations"). Response schemas double as filters:
// nothing but the listed fields leaves (never a token hash).
import { Type } from 'typebox';
import { EMAIL_MAX_LENGTH, FULL_NAME_MAX_LENGTH } from '../../auth/accounts/fields.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../auth/passwords/policy.js';

const TeamRoleSchema = Type.Union([Type.Literal('lead'), Type.Literal('member')]);
const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const FullName = Type.String({ minLength: 1, maxLength: FULL_NAME_MAX_LENGTH + 64 });
const InviteToken = Type.String({ minLength: 1, maxLength: 256 });

export const InvitationSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  full_name: Type.String(),
  team_id: Type.Integer(),
  team_name: Type.String(),
  role: TeamRoleSchema,
  invited_by: Type.String({ description: '`user:<id>` or `os:<login>`' }),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
});
export const InvitationListResponse = Type.Object({
  invitations: Type.Array(InvitationSchema, { description: 'pending (neither accepted nor withdrawn), newest first' }),
});

export const IssuedInvitationResponse = Type.Object({
  invitation: Type.Object({
    id: Type.Integer(),
    email: Type.String(),
    team_name: Type.String(),
    role: TeamRoleSchema,
    expires_at: Type.String({ format: 'date-time' }),
  }),
  delivery: Type.Union([Type.Literal('mail'), Type.Literal('terminal'), Type.Literal('none')], {
    description: 'mail: sent over SMTP; terminal: dev mode (printed, and in invite_url); none: production without SMTP, nothing sent',
  }),
  invite_url: Type.Optional(Type.String({ description: 'dev mode only: the link' })),
});

const Language = Type.Optional(Type.Union([Type.Literal('en'), Type.Literal('de')], { description: "the e-mail's language; default en" }));

export const InvitationBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: EMAIL_MAX_LENGTH + 64 }), full_name: FullName, team_id: Id, role: TeamRoleSchema, language: Language },
  { additionalProperties: false },
);
export const ResendBody = Type.Optional(Type.Object({ language: Language }, { additionalProperties: false }));
export const InvitationParams = Type.Object({ id: Id });

export const AcceptBody = Type.Object(
  {
    token: InviteToken,
    password: Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }),
    full_name: FullName,
    timezone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA zone the account starts in (the browser sends its own); default UTC' })),
  },
  { additionalProperties: false },
);
export const PreviewBody = Type.Object({ token: InviteToken }, { additionalProperties: false });
export const PreviewResponse = Type.Object({ email: Type.String(), full_name: Type.String(), team_name: Type.String(), role: TeamRoleSchema });
