// Accounts (docs/api.md, "Sessions and accounts: the rules"; docs/cli.md): registration and creation
// (accounts.ts), the rules of their fields (fields.ts), reading them (users.ts), what an operator does
// to them (admin.ts) and closing one's own (closing.ts). Each service takes one dependencies object.
export { createAccountService, type AccountDeps } from './accounts.js';
export { createAccountAdminService, type AccountAdminDeps } from './admin.js';
export { createAccountClosingService, type AccountClosingDeps } from './closing.js';
export { createRoleService, type RoleDeps, type UserWithRole } from './roles.js';
export { createUserDirectory, type PublicUser, type UserDirectory, type UserDirectoryDeps } from './users.js';
