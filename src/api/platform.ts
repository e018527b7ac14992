/**
 * Typed calls of the platform side: organizations, members and invitations, seats, projects and
 * API tokens. All reject with ApiError.
 */
import type { RichTextSettings } from '../../definitions/rich-text.ts';
import type { TokenDraft } from '../../definitions/api-tokens.ts';
import type { ApiToken, MintedToken } from '../../definitions/schemas/api-token.ts';
import type { Member, Organization, ProjectSummary } from '../../definitions/schemas/organization.ts';
import type { Project, ProjectCollection, RestrictedViewSettings } from '../../definitions/schemas/project.ts';
import type { MemberPermissions } from '../../definitions/permissions.ts';
import type { RestrictedView } from '../../definitions/restricted-view.ts';
import { getApiClient, type ApiClient } from './client.ts';
import { anonymous } from './token-grants.ts';

const ownsForbidden = { ownsForbidden: true } as const;

export type { ApiToken, Member, MintedToken, Organization, Project, ProjectSummary, RestrictedViewSettings };

/** A collection as the project lists it (the content model adds more). */
export type CollectionSummary = Pick<ProjectCollection, 'id' | 'name'> & Partial<Pick<ProjectCollection, 'singleItem'>>;

/** GET /api/user/invite/{id}: no sign-in needed. */
export interface Invite {
  email: string;
  verified: boolean;
  organizationID: string;
  organizationName: string;
}

export interface InviteEntry {
  email: string;
  permissions: Partial<MemberPermissions>;
}

export type MemberEdit = { email: string } & Partial<MemberPermissions>;

/**
 * A project change: name and description (update), the rich-text switches (update; scriptsEnabled
 * admin), or the restricted view (admin; null turns it off).
 */
export interface ProjectChange {
  name?: string;
  description?: string;
  settings?: { restrictedView?: RestrictedView | null; richText?: Partial<RichTextSettings> };
}

export interface PlatformApi {
  organizations(ids: readonly string[]): Promise<Organization[]>;
  organization(organizationID: string): Promise<Organization>;
  createOrganization(name: string): Promise<Organization>;
  renameOrganization(organizationID: string, name: string): Promise<Organization>;
  deleteOrganization(organizationID: string): Promise<void>;
  invite(organizationID: string, entries: InviteEntry[]): Promise<Member[]>;
  editMember(organizationID: string, body: MemberEdit): Promise<Member[]>;
  removeMember(organizationID: string, email: string): Promise<{ removed: string }>;
  addSeats(organizationID: string, numberOfSeats: number): Promise<{ seats: number }>;
  readInvite(inviteID: string): Promise<Invite>;
  acceptInvite(inviteID: string): Promise<{ organizationID: string }>;
  project(organizationID: string, projectID: string): Promise<Project>;
  createProject(organizationID: string, body: { name: string; description?: string }, templateID?: string): Promise<Project>;
  updateProject(organizationID: string, projectID: string, body: ProjectChange): Promise<Project>;
  restrictedView(organizationID: string, projectID: string): Promise<RestrictedViewSettings>;
  deleteProject(organizationID: string, projectID: string): Promise<void>;
  apiTokens(organizationID: string, projectID: string): Promise<ApiToken[]>;
  createApiToken(organizationID: string, projectID: string, draft: TokenDraft): Promise<MintedToken>;
  updateApiToken(token: ApiToken, draft: TokenDraft): Promise<ApiToken>;
  deleteApiToken(tokenID: string): Promise<void>;
}

const seg = encodeURIComponent;
const org = (organizationID: string) => `api/organization/${seg(organizationID)}`;
const project = (organizationID: string, projectID: string) => `${org(organizationID)}/project/${seg(projectID)}`;

export function createPlatformApi(client: ApiClient): PlatformApi {
  const { json } = client;
  return {
    organizations: (ids) => (ids.length ? json<Organization[]>('api/organizations', { searchParams: { organizations: ids.join(',') } }) : Promise.resolve([])),
    organization: (organizationID) => json<Organization>(org(organizationID)),
    createOrganization: (name) => json<Organization>('api/organization', { method: 'post', json: { name } }),
    renameOrganization: (organizationID, name) => json<Organization>(org(organizationID), { method: 'put', json: { name } }),
    deleteOrganization: (organizationID) => json<void>(org(organizationID), { method: 'delete' }),
    invite: (organizationID, entries) => json<Member[]>(`${org(organizationID)}/users`, { method: 'put', json: entries }),
    editMember: (organizationID, body) => json<Member[]>(`${org(organizationID)}/users/${seg(body.email)}`, { method: 'put', json: body }),
    removeMember: (organizationID, email) => json<{ removed: string }>(`${org(organizationID)}/users/${seg(email)}`, { method: 'delete' }),
    addSeats: (organizationID, numberOfSeats) =>
      json<{ seats: number }>('billing/billingDetails/seats', { method: 'put', searchParams: { organizationID }, json: { numberOfSeats } }),
    // Read signed out too: the join page is public. A signed-in caller's token is not needed.
    readInvite: (inviteID) => json<Invite>(`api/user/invite/${seg(inviteID)}`, { context: anonymous }),
    // Its 403 (the invite is for another e-mail address) is the join page's to explain.
    acceptInvite: (inviteID) => json<{ organizationID: string }>(`api/user/invite/${seg(inviteID)}/accept`, { method: 'post', context: ownsForbidden }),
    project: (organizationID, projectID) => json<Project>(project(organizationID, projectID)),
    createProject: (organizationID, body, templateID) =>
      json<Project>(`${org(organizationID)}/project`, { method: 'post', json: body, ...(templateID ? { searchParams: { templateID } } : {}) }),
    updateProject: (organizationID, projectID, body) => json<Project>(project(organizationID, projectID), { method: 'put', json: body }),
    restrictedView: (organizationID, projectID) => json<RestrictedViewSettings>(`${project(organizationID, projectID)}/restricted-view`),
    deleteProject: (organizationID, projectID) => json<void>(project(organizationID, projectID), { method: 'delete' }),
    apiTokens: (organizationID, projectID) => json<ApiToken[]>('api/apiTokens', { searchParams: { organizationID, projectID } }),
    // A right beyond one's own is a 403 whose detail names it: the token form shows it.
    createApiToken: (organizationID, projectID, draft) =>
      json<MintedToken>('api/apiTokens', { method: 'post', json: { ...draft, organizationID, projectID }, context: ownsForbidden }),
    updateApiToken: (token, draft) => json<ApiToken>(`api/apiTokens/${seg(token.id)}`, { method: 'put', json: draft, context: ownsForbidden }),
    deleteApiToken: (tokenID) => json<void>(`api/apiTokens/${seg(tokenID)}`, { method: 'delete' }),
  };
}

let browserPlatformApi: PlatformApi | null = null;

/** The platform calls over the page's client. */
export function getPlatformApi(): PlatformApi {
  browserPlatformApi ??= createPlatformApi(getApiClient());
  return browserPlatformApi;
}
