// Schemas of /api/teams (docs/api.md, "Teams"). Response schemas double as filters: nothing but the
// listed fields leaves.
import { Type } from 'typebox';
import { TEAM_NAME_MAX_LENGTH } from '../../teams/teams.js';
import { AbsenceType, LocalDate, nullableNumber, UserSchema } from '../schemas.js';
import { VacationResponse } from '../stats/schemas.js';

const TeamRoleSchema = Type.Union([Type.Literal('lead'), Type.Literal('member')]);

export const TeamSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  auto_lock_after_days: Type.Union([Type.Integer(), Type.Null()], {
    description: 'days after a month\'s end when the members\' months lock by themselves (docs/teams.md, "Closed months"); null: never',
  }),
});
const MembersSchema = Type.Array(Type.Object({ user: UserSchema, role: TeamRoleSchema }), { description: 'leads first, then by e-mail address' });
export const TeamListResponse = Type.Object({
  teams: Type.Array(
    Type.Object({
      ...TeamSchema.properties,
      members: Type.Optional(MembersSchema),
    }),
  ),
});
export const TeamListQuery = Type.Object(
  { members: Type.Optional(Type.Boolean({ description: "each team's members as well (one request instead of one per team)" })) },
  { additionalProperties: false },
);
export const TeamResponse = Type.Object({ team: TeamSchema });
export const TeamDetailResponse = Type.Object({
  team: TeamSchema,
  members: MembersSchema,
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
/** PATCH /api/teams/:id: a new name, the months' auto-lock, or both. */
export const TeamPatchBody = Type.Object(
  {
    name: Type.Optional(TeamNameBody.properties.name),
    auto_lock_after_days: Type.Optional(nullableNumber(Type.Integer({ minimum: 0, maximum: 366, description: 'null: never' }))),
  },
  { additionalProperties: false, minProperties: 1 },
);
export const MemberBody = Type.Object({ role: TeamRoleSchema }, { additionalProperties: false });

const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
export const TeamParams = Type.Object({ id: Id });
export const MemberParams = Type.Object({ id: Id, userId: Id });

/** GET /api/teams/:id/overview: every member's figures from the member's own answers (docs/teams.md, "The lead's view"). */
export const OverviewQuery = Type.Object(
  { week: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD, a day of the week (default: this week in your own time zone)' })) },
  { additionalProperties: false },
);
export const OverviewResponse = Type.Object({
  team: TeamSchema,
  week_start: LocalDate,
  members: Type.Array(
    Type.Object({
      user: UserSchema,
      week: Type.Object(
        { worked_minutes: Type.Integer(), target_minutes: Type.Integer(), balance_minutes: Type.Integer() },
        { description: "the totals of the member's own week answer (GET /api/stats/week), in the member's zone" },
      ),
      balance_minutes: Type.Integer({ description: "the member's own overtime answer (GET /api/stats/overtime)" }),
      vacation: VacationResponse,
      running_since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: "the running entry's start, or null" }),
      today: LocalDate,
      absence_today: Type.Union([AbsenceType, Type.Null()]),
      missing_days: Type.Array(LocalDate, { description: "the week's complete days with a target, nothing worked and no absence" }),
    }),
    { description: 'leads first, then by e-mail address' },
  ),
});
