// The team layer (docs/teams.md; docs/architecture.md, "The team layer"): the one authorisation rule
// (access.ts), how an actor stands to an account or a team (members.ts), and the administration of
// accounts through that rule (people.ts). Above auth/ and time/, which never import it.
export { ADMINISTRATION_ACTIONS, can, OPERATOR, requireAllowed, type Action, type Actor, type Target, type Verdict } from './access.js';
export { createPeopleService, type PeopleDeps, type PeopleService } from './people.js';
export { createAccountActionService, type AccountActionService } from './account-actions.js';
