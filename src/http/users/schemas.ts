// Schemas of /api/users (docs/api.md, "Users"). Response schemas double as filters: nothing but the
// listed fields leaves.
import { Type } from 'typebox';
import { PASSWORD_MAX_LENGTH } from '../../auth/passwords/policy.js';
import { RoleSchema } from '../auth/schemas.js';
import { UserSchema } from '../schemas.js';

export const UserWithRoleSchema = Type.Object({ ...UserSchema.properties, role: RoleSchema });

export const UserListQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 200, description: 'part of the e-mail address or the name, without regard to case' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'next_cursor of the page before' })),
  },
  { additionalProperties: false },
);

/** How the account stands (`timetrack user show`): what an admin's list shows beside the role. */
const AccountStateFields = {
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
  locked_until: Type.Union([Type.String(), Type.Null()], { description: 'while too many wrong passwords lock the account' }),
  two_factor: Type.Boolean({ description: 'two-factor sign-in is on' }),
  last_sign_in_at: Type.Union([Type.String(), Type.Null()], { description: 'the start of the newest session still kept; null: none' }),
};

export const UserListItemSchema = Type.Object({ ...UserWithRoleSchema.properties, ...AccountStateFields });

export const UserListResponse = Type.Object({
  users: Type.Array(UserListItemSchema),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});

export const UserParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

export const UserPatchBody = Type.Object(
  {
    role: RoleSchema,
    password: Type.Optional(
      Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4, description: 'your own current password: required when granting or removing admin' }),
    ),
  },
  { additionalProperties: false },
);

export const UserResponse = Type.Object({ user: UserWithRoleSchema });

/** The answer of disable, enable, unlock and two-factor-reset: the account as it stands after it. */
export const AccountStateResponse = Type.Object({
  user: Type.Object({ ...UserSchema.properties, ...AccountStateFields }),
  revoked_sessions: Type.Optional(Type.Integer({ description: 'disable and two-factor-reset: the sessions ended' })),
  was_enabled: Type.Optional(Type.Boolean({ description: 'two-factor-reset: whether two-factor sign-in was on' })),
});

export const ResetLinkResponse = Type.Object({
  delivery: Type.Union([Type.Literal('mail'), Type.Literal('terminal')], { description: 'mail: sent over SMTP; terminal: dev mode' }),
  expires_at: Type.String(),
  reset_url: Type.Optional(Type.String({ description: 'dev mode only; never in production' })),
  reset_token: Type.Optional(Type.String({ description: 'dev mode only; never in production' })),
});
