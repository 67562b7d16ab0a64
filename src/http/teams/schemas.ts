// Schemas of /api/teams (docs/api.md, "Teams"). Response schemas double as filters: nothing but the
// listed fields leaves.
import { Type } from 'typebox';
import { TEAM_NAME_MAX_LENGTH } from '../../teams/teams.js';
import { UserSchema } from '../schemas.js';

const TeamRoleSchema = Type.Union([Type.Literal('lead'), Type.Literal('member')]);

export const TeamSchema = Type.Object({ id: Type.Integer(), name: Type.String(), created_at: Type.String({ format: 'date-time' }) });
export const TeamListResponse = Type.Object({ teams: Type.Array(TeamSchema) });
export const TeamResponse = Type.Object({ team: TeamSchema });
export const TeamDetailResponse = Type.Object({
  team: TeamSchema,
  members: Type.Array(Type.Object({ user: UserSchema, role: TeamRoleSchema }), { description: 'leads first, then by e-mail address' }),
});

export const TeamNameBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: TEAM_NAME_MAX_LENGTH * 4,
      description: `1 to ${TEAM_NAME_MAX_LENGTH} characters once trimmed; unique without regard to case`,
    }),
  },
  { additionalProperties: false },
);
export const MemberBody = Type.Object({ role: TeamRoleSchema }, { additionalProperties: false });

const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
export const TeamParams = Type.Object({ id: Id });
export const MemberParams = Type.Object({ id: Id, userId: Id });
