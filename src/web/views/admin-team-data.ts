// The teams as Administration shows them (docs/web-client.md, "Administration"): every team with its
// members and leads, read as an admin reads them (GET /api/teams, then GET /api/teams/:id of each), and
// the teams of each account, for the list of accounts. The API's list carries no members: a team's
// detail does.
import { api, ApiError } from '../api.js';
import type { Answer } from '../routes.js';

export type TeamDetail = Answer<'GET /api/teams/:id'>;
export type TeamMember = TeamDetail['members'][number];
export type TeamRole = TeamMember['role'];

/** Every team within reach, by name, with its members (a team deleted meanwhile is left out). */
export async function loadTeamDetails(): Promise<TeamDetail[]> {
  const { teams } = await api('GET /api/teams');
  const details = await Promise.all(
    teams.map((team) =>
      api('GET /api/teams/:id', { params: { id: team.id } }).catch((failure: unknown) => {
        if (failure instanceof ApiError && failure.failure.code === 'NOT_FOUND') return undefined;
        throw failure;
      }),
    ),
  );
  return details.filter((detail): detail is TeamDetail => detail !== undefined);
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
