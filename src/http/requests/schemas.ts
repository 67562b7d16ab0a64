// Schemas of /api/requests (docs/api.md, "Leave requests"). Response schemas double as filters:
// nothing but the listed fields leaves. Only typebox here: the browser client reads the response types
// (src/http/contract.ts); the decision's body, which needs the note's bound, is in ./routes.ts.
import { Type } from 'typebox';
import { AbsencePortion, LocalDate } from '../schemas.js';

export const RequestState = Type.Union([
  Type.Literal('requested'),
  Type.Literal('approved'),
  Type.Literal('rejected'),
  Type.Literal('withdrawn'),
  Type.Literal('cancel_requested'),
  Type.Literal('cancelled'),
]);

export const LeaveRequestSchema = Type.Object({
  id: Type.Integer({ description: 'the request_id of its absences' }),
  person: Type.Object({ id: Type.Integer(), email: Type.String(), full_name: Type.String() }),
  type: Type.Literal('vacation'),
  from: LocalDate,
  to: LocalDate,
  portion: AbsencePortion,
  days: Type.Number({ description: 'the days asked for (a half day 0.5)' }),
  state: RequestState,
  exceeds_allowance: Type.Boolean({ description: 'when it was made, the request left its year less than nothing of the allowance' }),
  note: Type.Union([Type.String(), Type.Null()], { description: "the lead's note with the last decision" }),
  decided_by: Type.Union([Type.Object({ id: Type.Integer(), full_name: Type.String() }), Type.Null()], {
    description: 'who decided last; null before any decision, at the shell, or when that account is gone',
  }),
  decided_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});

export const RequestResponse = Type.Object({ request: LeaveRequestSchema });
export const RequestListResponse = Type.Object({ requests: Type.Array(LeaveRequestSchema, { description: 'newest first, at most 500' }) });
export const RequestListQuery = Type.Object(
  {
    state: Type.Optional(RequestState),
    scope: Type.Optional(
      Type.Union([Type.Literal('own'), Type.Literal('team')], {
        description: "own (default): your own requests; team: those of the people in the teams you lead, an admin's every account's",
      }),
    ),
  },
  { additionalProperties: false },
);
export const RequestParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });
