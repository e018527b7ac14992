/**
 * Declarative access for the console's routes. A route states what it needs in its config,
 * `{ action, scope }`; one preHandler, attached to exactly those routes, checks the caller's
 * permission in the organization, then that the project is one of it, then that a collection
 * named in the address is one the caller sees (a restricted view hides the rest as if they did
 * not exist: server/main/projects.ts), and leaves what it found in `request.scope`. Handlers make
 * no permission calls of their own. The OpenAPI document shows each route's action as
 * `x-required-action`.
 */
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { Action } from '../../definitions/permissions.ts';
import { currentUser } from '../auth/authenticate.ts';
import type { OrganizationAccess } from '../main/access.ts';
import { collectionVisibilityOf, type CollectionVisibility, type ProjectRow } from '../main/projects.ts';

/** How far the check goes: the organization, a project of it, a collection of that project. */
export type ScopeLevel = 'organization' | 'project' | 'collection';

/** Where a call points: by default the path's `org`, `proj` and `collection`. */
export interface ScopeAddress {
  organization: string;
  project?: string | undefined;
  collection?: string | undefined;
  /** A row the address was read from (a webhook, a token), kept for the handler. */
  resource?: unknown;
}

/** What a route needs; `locate`, `actionFor` and `caller` are for the routes the defaults do not fit. */
export interface RouteAccess {
  action: Action;
  scope: ScopeLevel;
  /** The address when it is not in the path (a body, a query, a row named by id). */
  locate?: (request: FastifyRequest) => ScopeAddress | Promise<ScopeAddress>;
  /** A stricter action some requests of the route need (read after validation). */
  actionFor?: (request: FastifyRequest) => Action;
  /** The caller when it is not the bearer token's user (an EventSource sends its token in the query). */
  caller?: (request: FastifyRequest) => Promise<string>;
}

/** What the check found, for the handler. */
export interface RequestScope {
  /** The caller's standing in the organization (flags, e-mail). */
  standing: OrganizationAccess;
  organizationId: string;
  /** The project of a project or collection scope; '' for an organization scope. */
  projectId: string;
  project: ProjectRow | undefined;
  /** Which collections the caller sees; everything for an organization scope. */
  visibility: CollectionVisibility;
  resource: unknown;
}

declare module 'fastify' {
  interface FastifyContextConfig extends Partial<RouteAccess> {}
  interface FastifyRequest {
    scope: RequestScope;
  }
}

const pathAddress = (request: FastifyRequest): ScopeAddress => {
  const { org, proj, collection } = request.params as { org: string; proj?: string; collection?: string };
  return { organization: org, project: proj, collection };
};

/** Locates a call by the `organizationID` (and `projectID`) of its query or body. */
export const namedIn =
  (part: 'query' | 'body') =>
  (request: FastifyRequest): ScopeAddress => {
    const { organizationID, projectID } = request[part] as { organizationID: string; projectID?: string };
    return { organization: organizationID, project: projectID };
  };

/**
 * The check itself: permission first, then the project, then the collection. A live stream runs
 * it again whenever a row it read changes (server/content/live-routes.ts).
 */
export async function resolveScope(app: FastifyInstance, userId: string, action: Action, scope: ScopeLevel, address: ScopeAddress): Promise<RequestScope> {
  const standing = await app.ctx.access.require(userId, address.organization, action);
  const project = scope === 'organization' ? undefined : await app.ctx.projects.row(address.organization, address.project!);
  const visibility = collectionVisibilityOf(project ?? { settings: {} }, project ? standing : undefined);
  if (scope === 'collection') visibility.require(address.collection!);
  return { standing, organizationId: address.organization, projectId: project ? address.project! : '', project, visibility, resource: address.resource };
}

/** Attaches the check to every route that states an action; call before the routes are registered. */
export function registerRequestScope(app: FastifyInstance) {
  app.decorateRequest('scope', null as unknown as RequestScope);
  app.addHook('onRoute', (route) => {
    const config = route.config as Partial<RouteAccess> | undefined;
    if (!config?.action || !config.scope) return;
    const { action, scope, locate = pathAddress, actionFor, caller } = config;
    // Shown in the OpenAPI document; nothing else reads it.
    if (route.schema) route.schema = { ...route.schema, 'x-required-action': action } as FastifySchema;
    const check = async (request: FastifyRequest) => {
      const userId = caller ? await caller(request) : currentUser(request).userId;
      const address = await locate(request);
      request.scope = await resolveScope(app, userId, actionFor?.(request) ?? action, scope, address);
    };
    // A route's own hooks run after its plugins' (request validation answers before access), and
    // the check after the route's own preHandlers: checks of the request alone answer first.
    const own = route.preHandler;
    route.preHandler = own === undefined ? [check] : [...(Array.isArray(own) ? own : [own]), check];
  });
}
