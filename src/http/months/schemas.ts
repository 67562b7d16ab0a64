// Schemas of closed months (docs/api.md, "Months"; docs/teams.md, "Closed months"). Response
// schemas double as filters: nothing but the listed fields leaves.
import { Type } from 'typebox';
import { UserSchema } from '../schemas.js';
import { TeamSchema } from '../teams/schemas.js';
import { MAX_COMMENT_LENGTH } from '../../teams/months/store.js';
import { NOTE_MAX_LENGTH } from '../../time/entries/rules.js';

const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const MonthText = Type.String({ maxLength: 7, description: 'YYYY-MM' });
const orNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const MonthState = Type.Union([
  Type.Literal('open'),
  Type.Literal('submitted'),
  Type.Literal('returned'),
  Type.Literal('approved'),
  Type.Literal('locked'),
]);

export const MonthStatusSchema = Type.Object({
  month: MonthText,
  state: MonthState,
  submitted_at: orNull(Type.String({ format: 'date-time' })),
  submitted_by: orNull(Type.Integer({ description: 'the account that submitted it (null: the operator at the shell)' })),
  decided_at: orNull(Type.String({ format: 'date-time', description: 'approved, returned, reopened or locked at' })),
  decided_by: orNull(Type.Integer({ description: 'who decided (null: the operator at the shell, or housekeeping for `locked`)' })),
  comment: orNull(Type.String({ description: "the lead's comment; after a reopening, the admin's reason" })),
  digest: orNull(Type.String({ description: 'SHA-256 (hex) of the month\'s canonical JSON, from its approval (docs/teams.md, "The seal")' })),
});
export const MonthAnswer = Type.Object({ month: MonthStatusSchema });

export const OwnMonthParams = Type.Object({ month: MonthText });
export const PersonMonthParams = Type.Object({ id: Id, month: MonthText });
export const PersonParams = Type.Object({ id: Id });
export const TeamParams = Type.Object({ id: Id });

export const YearQuery = Type.Object({ year: Type.Integer({ minimum: 1970, maximum: 2099, description: 'YYYY' }) }, { additionalProperties: false });
export const YearResponse = Type.Object({ year: Type.Integer(), months: Type.Array(MonthStatusSchema, { description: 'January to December' }) });

export const WaitingResponse = Type.Object({
  months: Type.Array(Type.Object({ user: UserSchema, ...MonthStatusSchema.properties }), {
    description: 'oldest month first, then by e-mail address; at most 500',
  }),
});

export const TeamMonthQuery = Type.Object({ month: MonthText }, { additionalProperties: false });
export const TeamMonthResponse = Type.Object({
  team: TeamSchema,
  month: MonthText,
  members: Type.Array(Type.Object({ user: UserSchema, ...MonthStatusSchema.properties }), { description: 'leads first, then by e-mail address' }),
});

const Text = (description: string) => Type.String({ maxLength: MAX_COMMENT_LENGTH * 4, description });
export const ApproveBody = Type.Object({ comment: Type.Optional(Text('optional, at most 1000 characters')) }, { additionalProperties: false });
export const ReturnBody = Type.Object({ comment: Text('required: what to change, at most 1000 characters') }, { additionalProperties: false });
export const ReopenBody = Type.Object({ reason: Text('required: why, at most 1000 characters (in the audit trail)') }, { additionalProperties: false });

export const VerifyResponse = Type.Object({
  matches: Type.Boolean(),
  digest: Type.String({ description: 'the digest of the figures now' }),
  sealed_digest: Type.Optional(Type.String({ description: 'when they differ: the digest stored at approval' })),
  differences: Type.Optional(Type.Array(Type.String(), { description: 'top-level fields by name, day rows as days/YYYY-MM-DD' })),
});

export const CorrectionBody = Type.Object(
  {
    date: Type.String({ maxLength: 10, description: 'YYYY-MM-DD, in an open month' }),
    minutes: Type.Integer({ description: 'signed whole minutes, not 0' }),
    note: Type.Optional(Type.String({ maxLength: NOTE_MAX_LENGTH })),
  },
  { additionalProperties: false },
);
