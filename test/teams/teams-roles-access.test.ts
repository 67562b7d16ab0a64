// The one authorisation rule (src/teams/access.ts; docs/teams.md, "Who may do what"), as a table: every
// role, every action, every way the actor can stand to the target, with a session and with an API token.
import { describe, expect, it } from 'vitest';
import { can, requireAllowed, type Action, type Actor, type Target } from '../../src/teams/access.js';
import { ServiceError } from '../../src/common/errors.js';

const ACTIONS: Action[] = [
  'users.list',
  'users.read',
  'users.role',
  'teams.create',
  'teams.manage',
  'teams.members',
  'teams.read',
  'stats.read',
  'users.manage',
  'audit.read',
  'teams.calendar',
];

const TARGETS: Record<string, Target> = {
  everyone: { kind: 'everyone' },
  'person self': { kind: 'person', relation: 'self' },
  'person led': { kind: 'person', relation: 'led' },
  'person none': { kind: 'person', relation: 'none' },
  'team lead': { kind: 'team', relation: 'lead' },
  'team member': { kind: 'team', relation: 'member' },
  'team none': { kind: 'team', relation: 'none' },
  'lead sets member': { kind: 'membership', relation: 'lead', memberRole: 'member' },
  'lead sets lead': { kind: 'membership', relation: 'lead', memberRole: 'lead' },
  'member sets member': { kind: 'membership', relation: 'member', memberRole: 'member' },
  'outsider sets member': { kind: 'membership', relation: 'none', memberRole: 'member' },
};

// One letter per action in ACTIONS order: a = allow, n = not_found, f = forbidden.
//                          list read role tcre tman tmem tread stats manage audit tcal
// prettier-ignore
const LEAD: Record<string, string> = {
  everyone: /*           */ 'f    f    f    f    f    f    a     f     f    f    f',
  'person self': /*      */ 'f    a    f    f    f    f    f     a     f    f    f',
  'person led': /*       */ 'f    a    f    f    f    f    f     a     f    f    f',
  'person none': /*      */ 'n    n    n    n    n    n    n     n     n    n    n',
  'team lead': /*        */ 'f    f    f    f    f    f    a     f     f    f    a',
  'team member': /*      */ 'f    f    f    f    f    f    a     f     f    f    a',
  'team none': /*        */ 'n    n    n    n    n    n    n     n     n    n    n',
  'lead sets member': /* */ 'f    f    f    f    f    a    f     f     f    f    f',
  'lead sets lead': /*   */ 'f    f    f    f    f    f    f     f     f    f    f',
  'member sets member': /**/ 'f    f    f    f    f    f    f     f     f    f    f',
  'outsider sets member': 'n    n    n    n    n    n    n     n     n    n    n',
};
// A member account: what a lead may, except where only leading a team gives it (the led person, a membership).
// prettier-ignore
const MEMBER: Record<string, string> = {
  ...LEAD,
  'person led': /*       */ 'n    n    n    n    n    n    n     n     n    n    n',
  'lead sets member': /* */ 'f    f    f    f    f    f    f     f     f    f    f',
};

const VERDICT = { a: 'allow', n: 'not_found', f: 'forbidden' } as const;

function expected(table: Record<string, string>, target: string, action: Action): string {
  const letters = table[target]!.split(/\s+/);
  return VERDICT[letters[ACTIONS.indexOf(action)] as keyof typeof VERDICT];
}

describe('can(actor, action, target)', () => {
  for (const target of Object.keys(TARGETS)) {
    for (const action of ACTIONS) {
      it(`${action} on ${target}: admin, lead, member; with an API token administration is forbidden`, () => {
        const actor = (role: Actor['role'], viaApiToken = false): Actor => ({ userId: 1, role, viaApiToken });
        expect(can(actor('admin'), action, TARGETS[target]!)).toBe('allow');
        expect(can(actor('lead'), action, TARGETS[target]!)).toBe(expected(LEAD, target, action));
        expect(can(actor('member'), action, TARGETS[target]!)).toBe(expected(MEMBER, target, action));
        const administration = !['teams.read', 'stats.read', 'teams.calendar'].includes(action);
        for (const role of ['admin', 'lead', 'member'] as const) {
          const session = can(actor(role), action, TARGETS[target]!);
          expect(can(actor(role, true), action, TARGETS[target]!)).toBe(administration && session === 'allow' ? 'forbidden' : session);
        }
      });
    }
  }

  it('requireAllowed maps not_found to the given error, forbidden to FORBIDDEN, and a token to FORBIDDEN_FOR_API_TOKEN', () => {
    const member: Actor = { userId: 1, role: 'member', viaApiToken: false };
    const notFound = () => new ServiceError('USER_NOT_FOUND', 'no');
    const code = (fn: () => void) => {
      try {
        fn();
        return 'allowed';
      } catch (error) {
        return (error as ServiceError).code;
      }
    };
    expect(code(() => requireAllowed(member, 'users.read', { kind: 'person', relation: 'none' }, notFound))).toBe('USER_NOT_FOUND');
    expect(code(() => requireAllowed(member, 'users.list', { kind: 'everyone' }, notFound))).toBe('FORBIDDEN');
    expect(code(() => requireAllowed({ ...member, role: 'admin', viaApiToken: true }, 'users.list', { kind: 'everyone' }, notFound))).toBe(
      'FORBIDDEN_FOR_API_TOKEN',
    );
    expect(code(() => requireAllowed(member, 'stats.read', { kind: 'person', relation: 'self' }, notFound))).toBe('allowed');
  });
});
