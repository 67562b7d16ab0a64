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

export const UserListResponse = Type.Object({
  users: Type.Array(UserWithRoleSchema),
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
