/** TanStack Query hooks over the platform calls: thin wrappers, the calls live in platform.ts. */
import { createContext, useContext } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TokenDraft } from '../../definitions/api-tokens.ts';
import type { Me } from './auth.ts';
import { contentKeys } from './content-keys.ts';
import type { RestrictedView } from '../../definitions/restricted-view.ts';
import type { RichTextSettings } from '../../definitions/rich-text.ts';
import { getPlatformApi, type ApiToken, type InviteEntry, type MemberEdit, type Organization, type PlatformApi } from './platform.ts';
import { queryKeys, shouldRetry } from './queries.ts';

export const platformKeys = {
  organizations: (ids: readonly string[]) => ['organizations', [...ids].sort().join(',')] as const,
  allOrganizations: ['organizations'] as const,
  organization: (organizationID: string) => ['organization', organizationID] as const,
  project: (organizationID: string, projectID: string) => ['project', organizationID, projectID] as const,
  apiTokens: (organizationID: string, projectID: string) => ['apiTokens', organizationID, projectID] as const,
  restrictedView: (organizationID: string, projectID: string) => ['restrictedView', organizationID, projectID] as const,
};

const PlatformApiContext = createContext<PlatformApi | null>(null);

/** Overrides the platform calls for a subtree (tests); without it the page's client is used. */
export const PlatformApiProvider = PlatformApiContext.Provider;

export function usePlatformApi(): PlatformApi {
  return useContext(PlatformApiContext) ?? getPlatformApi();
}

/** The signed-in user now belongs to (or left) an organization: the guards must see it at once. */
export function setMyOrganizations(queryClient: QueryClient, change: (ids: string[]) => string[]) {
  queryClient.setQueryData<Me>(queryKeys.me, (me) => (me ? { ...me, organizations: change(me.organizations) } : me));
  void queryClient.invalidateQueries({ queryKey: queryKeys.me });
  void queryClient.invalidateQueries({ queryKey: platformKeys.allOrganizations });
}

export function useOrganizations(ids: readonly string[] | undefined) {
  const api = usePlatformApi();
  return useQuery({
    queryKey: platformKeys.organizations(ids ?? []),
    queryFn: () => api.organizations(ids ?? []),
    enabled: ids !== undefined,
    retry: shouldRetry,
  });
}

export function useOrganization(organizationID: string) {
  const api = usePlatformApi();
  return useQuery({ queryKey: platformKeys.organization(organizationID), queryFn: () => api.organization(organizationID), retry: shouldRetry });
}

export function useProject(organizationID: string, projectID: string) {
  const api = usePlatformApi();
  return useQuery({ queryKey: platformKeys.project(organizationID, projectID), queryFn: () => api.project(organizationID, projectID), retry: shouldRetry });
}

export function useApiTokens(organizationID: string, projectID: string, options: { enabled?: boolean } = {}) {
  const api = usePlatformApi();
  return useQuery({
    queryKey: platformKeys.apiTokens(organizationID, projectID),
    queryFn: () => api.apiTokens(organizationID, projectID),
    enabled: options.enabled ?? true,
    retry: shouldRetry,
  });
}

export function useCreateOrganization() {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.createOrganization(name),
    onSuccess: (organization) => {
      queryClient.setQueryData(platformKeys.organization(organization.id), organization);
      setMyOrganizations(queryClient, (ids) => [...ids.filter((id) => id !== organization.id), organization.id]);
    },
  });
}

/** Keeps the organization's cache in step with an answer that carries it whole or in part. */
function updateOrganization(queryClient: QueryClient, organizationID: string, change: (organization: Organization) => Organization) {
  queryClient.setQueryData<Organization>(platformKeys.organization(organizationID), (organization) => (organization ? change(organization) : organization));
  void queryClient.invalidateQueries({ queryKey: platformKeys.organization(organizationID) });
}

export function useRenameOrganization(organizationID: string) {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.renameOrganization(organizationID, name),
    onSuccess: (organization) => {
      queryClient.setQueryData(platformKeys.organization(organizationID), organization);
      void queryClient.invalidateQueries({ queryKey: platformKeys.allOrganizations });
    },
  });
}

export function useDeleteOrganization(organizationID: string) {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.deleteOrganization(organizationID),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: platformKeys.organization(organizationID) });
      setMyOrganizations(queryClient, (ids) => ids.filter((id) => id !== organizationID));
    },
  });
}

export function useInvite(organizationID: string) {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entries: InviteEntry[]) => api.invite(organizationID, entries),
    onSuccess: (users) => updateOrganization(queryClient, organizationID, (organization) => ({ ...organization, users })),
  });
}

export function useEditMember(organizationID: string) {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberEdit) => api.editMember(organizationID, body),
    onSuccess: (users) => updateOrganization(queryClient, organizationID, (organization) => ({ ...organization, users })),
  });
}

export function useRemoveMember(organizationID: string) {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api.removeMember(organizationID, email),
    onSuccess: (_answer, email) =>
      updateOrganization(queryClient, organizationID, (organization) => ({
        ...organization,
        users: organization.users.filter((user) => user.email.toLowerCase() !== email.toLowerCase()),
      })),
  });
}

export function useAddSeats(organizationID: string) {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (numberOfSeats: number) => api.addSeats(organizationID, numberOfSeats),
    onSuccess: ({ seats }) => updateOrganization(queryClient, organizationID, (organization) => ({ ...organization, seats })),
  });
}

export function useCreateProject(organizationID: string) {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, description, templateID }: { name: string; description?: string; templateID?: string }) =>
      api.createProject(organizationID, description ? { name, description } : { name }, templateID),
    onSuccess: (project) => {
      queryClient.setQueryData(platformKeys.project(organizationID, project.id), project);
      updateOrganization(queryClient, organizationID, (organization) => ({
        ...organization,
        projects: [...organization.projects, { id: project.id, name: project.name, description: project.description }],
      }));
    },
  });
}

export function useUpdateProject(organizationID: string, projectID: string) {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; description: string }) => api.updateProject(organizationID, projectID, body),
    onSuccess: (project) => {
      queryClient.setQueryData(platformKeys.project(organizationID, projectID), project);
      updateOrganization(queryClient, organizationID, (organization) => ({
        ...organization,
        projects: organization.projects.map((entry) => (entry.id === projectID ? { id: project.id, name: project.name, description: project.description } : entry)),
      }));
    },
  });
}

/** The project's restricted view with every collection to choose from (admins only). */
export function useRestrictedView(organizationID: string, projectID: string, options: { enabled?: boolean } = {}) {
  const api = usePlatformApi();
  return useQuery({
    queryKey: platformKeys.restrictedView(organizationID, projectID),
    queryFn: () => api.restrictedView(organizationID, projectID),
    enabled: options.enabled ?? true,
    retry: shouldRetry,
  });
}

/** Sets (or with null turns off) the restricted view; the project comes back as the caller now sees it. */
export function useSetRestrictedView(organizationID: string, projectID: string) {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (restrictedView: RestrictedView | null) => api.updateProject(organizationID, projectID, { settings: { restrictedView } }),
    onSuccess: (project) => {
      queryClient.setQueryData(platformKeys.project(organizationID, projectID), project);
      void queryClient.invalidateQueries({ queryKey: platformKeys.restrictedView(organizationID, projectID) });
      // The collection lists follow (an admin may have listed themselves).
      void queryClient.invalidateQueries({ queryKey: contentKeys.project({ organizationID, projectID }) });
    },
  });
}

/** Changes some of the project's rich-text switches (definitions/rich-text.ts; scriptsEnabled: admins only). */
export function useSetRichTextSettings(organizationID: string, projectID: string) {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (richText: Partial<RichTextSettings>) => api.updateProject(organizationID, projectID, { settings: { richText } }),
    onSuccess: (project) => queryClient.setQueryData(platformKeys.project(organizationID, projectID), project),
  });
}

/** Deletes a project; on success the organization is loaded again before the caller moves on. */
export function useDeleteProject(organizationID: string, projectID: string) {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.deleteProject(organizationID, projectID),
    // The project's own queries are left to expire: its screens are still drawn until the caller moves on.
    onSuccess: () => queryClient.refetchQueries({ queryKey: platformKeys.organization(organizationID) }),
  });
}

export function useCreateApiToken(organizationID: string, projectID: string) {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: TokenDraft) => api.createApiToken(organizationID, projectID, draft),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: platformKeys.apiTokens(organizationID, projectID) }),
  });
}

export function useUpdateApiToken(organizationID: string, projectID: string) {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ token, draft }: { token: ApiToken; draft: TokenDraft }) => api.updateApiToken(token, draft),
    onSuccess: (updated) => {
      queryClient.setQueryData<ApiToken[]>(platformKeys.apiTokens(organizationID, projectID), (list) =>
        list?.map((token) => (token.id === updated.id ? updated : token)),
      );
    },
  });
}

export function useDeleteApiToken(organizationID: string, projectID: string) {
  const api = usePlatformApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenID: string) => api.deleteApiToken(tokenID),
    onSuccess: (_answer, tokenID) => {
      queryClient.setQueryData<ApiToken[]>(platformKeys.apiTokens(organizationID, projectID), (list) => list?.filter((token) => token.id !== tokenID));
    },
  });
}
