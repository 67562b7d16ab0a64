// Schemas of /api/teams (docs/api.md, "Teams"). Response schemas double as filters: nothing but the
// listed fields leaves.
import { Type } from 'typebox';
import { TEAM_NAME_MAX_LENGTH } from '../../teams/teams.js';
import { AbsencePortion, AbsenceType, LocalDate, nullableNumber, UserSchema } from '../schemas.js';
import { VacationResponse } from '../stats/schemas.js';

const TeamRoleSchema = Type.Union([Type.Literal('lead'), Type.Literal('member')]);

const AbsenceApproval = Type.Union([Type.Literal('required'), Type.Literal('none')], {
  description: "required: a member's vacation is a request until a lead approves it (docs/teams.md, Leave requests); none: booked at once",
});
export const TeamSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  absence_approval: AbsenceApproval,
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
/** PATCH /api/teams/:id: a new name, whether vacation waits for approval, the months' auto-lock, or several. */
export const TeamPatchBody = Type.Object(
  {
    name: Type.Optional(TeamNameBody.properties.name),
    absence_approval: Type.Optional(AbsenceApproval),
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

/** GET /api/teams/:id/calendar: a month of every member's days (docs/teams.md, "Team calendar"). */
export const CalendarQuery = Type.Object(
  {
    month: Type.Optional(Type.String({ maxLength: 7, description: 'YYYY-MM (default: this month in your own time zone)' })),
    lang: Type.Optional(Type.Union([Type.Literal('en'), Type.Literal('de')], { description: 'language of the public holiday names (default en)' })),
  },
  { additionalProperties: false },
);
const CalendarAbsence = Type.Union(
  [
    Type.Object({ type: AbsenceType, portion: AbsencePortion, state: Type.Union([Type.Literal('approved'), Type.Literal('requested')]) }),
    Type.Object({ type: Type.Literal('away'), portion: AbsencePortion }),
    Type.Null(),
  ],
  {
    description:
      "the member's absence; `requested`: vacation waiting for a lead (shown to the person and to whoever sees the kinds); to a member of the team another member's is only `away` with its portion, and a requested one not at all",
  },
);
export const CalendarResponse = Type.Object({
  team: TeamSchema,
  month: Type.String({ description: 'YYYY-MM' }),
  days: Type.Array(LocalDate, { description: "the month's dates; each member's days are in this order" }),
  members: Type.Array(
    Type.Object({
      user: UserSchema,
      days: Type.Array(
        Type.Object({
          date: LocalDate,
          target: Type.Boolean({ description: "the day has a target under the member's schedule (target_minutes > 0 in the member's own month)" }),
          holiday: Type.Union([Type.String(), Type.Null()], { description: "the public holiday of the member's region, named in `lang`, or null" }),
          absence: CalendarAbsence,
        }),
      ),
    }),
    { description: 'leads first, then by e-mail address' },
  ),
});
