// The teams as Administration shows them (docs/web-client.md, "Administration"): every team with its
// members and leads, in one request (GET /api/teams?members=true), and the teams of each account, for
// the list of accounts.
import { api } from '../api.js';
import type { Answer } from '../routes.js';

export type TeamDetail = Answer<'GET /api/teams/:id'>;
export type TeamMember = TeamDetail['members'][number];
export type TeamRole = TeamMember['role'];

/** Every team within reach, by name, with its members, as GET /api/teams/:id answers each. */
export async function loadTeamDetails(): Promise<TeamDetail[]> {
  const { teams } = await api('GET /api/teams', { query: { members: true } });
  return teams.map(({ members, ...team }) => ({ team, members: members ?? [] }));
}

/** The teams of each account (by its id), with its role in each. */
export function teamsByAccount(details: TeamDetail[]): Map<number, Array<{ name: string; role: TeamRole }>> {
  const byAccount = new Map<number, Array<{ name: string; role: TeamRole }>>();
  for (const detail of details) {
    for (const member of detail.members) {
      const list = byAccount.get(member.user.id) ?? [];
      list.push({ name: detail.team.name, role: member.role });
      byAccount.set(member.user.id, list);
    }
  }
  return byAccount;
}
