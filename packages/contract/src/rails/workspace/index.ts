/**
 * The workspace rail (`/v1/workspaces`, starter tier): workspaces of a tenant, the principals
 * (users by email, API keys by id) given a role in each, and teams of those principals. A
 * workspace is `active` until archived; an archived workspace takes no write (update, new team,
 * new or revoked principal): 409 `conflict` naming its state, and nothing changes. The role a
 * principal holds in a workspace governs what its key may do with that workspace's records (the
 * server's platform/workspace-access.ts; the rule is in the routes' descriptions).
 *
 * Hand-written rather than kit resources: the workspace collection is the rail's base path itself
 * (the catalogue's `list`, `create`, `update`, `archive`), a workspace carries counts read with it
 * (its active principals and teams), every write first locks the workspace to refuse an archived
 * one, and teams and principals live inside one workspace (`/v1/workspaces/{id}/teams`): a path
 * with a parent id, which a kit resource cannot declare.
 */

export * from './routes.ts';
export * from './schemas.ts';
