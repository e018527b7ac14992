/** TanStack Query hooks over the app-user and user-group calls: thin wrappers, the calls live in project-users.ts. */
import { createContext, useContext } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getProjectUsersApi,
  type ItemPlace,
  type NewProjectUser,
  type ProjectScopeIds,
  type ProjectUserQuery,
  type ProjectUsersApi,
  type UserGroup,
  type UserGroupDraft,
} from './project-users.ts';
import { shouldRetry } from './queries.ts';

export const projectUserKeys = {
  all: (scope: ProjectScopeIds) => ['projectUsers', scope.organizationID, scope.projectID] as const,
  users: (scope: ProjectScopeIds, query: ProjectUserQuery) =>
    ['projectUsers', scope.organizationID, scope.projectID, 'list', query.pageNumber ?? 1, query.perPage ?? 0, query.search ?? ''] as const,
  user: (scope: ProjectScopeIds, userID: string) => ['projectUsers', scope.organizationID, scope.projectID, 'user', userID] as const,
  groups: (scope: ProjectScopeIds) => ['userGroups', scope.organizationID, scope.projectID] as const,
  itemUsers: (place: ItemPlace) => ['itemUsers', place.organizationID, place.projectID, place.collectionID, place.itemID] as const,
};

const ProjectUsersApiContext = createContext<ProjectUsersApi | null>(null);

/** Overrides these calls for a subtree (tests); without it the page's client is used. */
export const ProjectUsersApiProvider = ProjectUsersApiContext.Provider;

export function useProjectUsersApi(): ProjectUsersApi {
  return useContext(ProjectUsersApiContext) ?? getProjectUsersApi();
}

/** A page of the project's app users; the previous page stays shown while the next one loads. */
export function useProjectUsers(scope: ProjectScopeIds, query: ProjectUserQuery, options: { enabled?: boolean } = {}) {
  const api = useProjectUsersApi();
  return useQuery({
    queryKey: projectUserKeys.users(scope, query),
    queryFn: () => api.users(scope, query),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
    retry: shouldRetry,
  });
}

export function useProjectUser(scope: ProjectScopeIds, userID: string | null) {
  const api = useProjectUsersApi();
  return useQuery({
    queryKey: projectUserKeys.user(scope, userID ?? ''),
    queryFn: () => api.user(scope, userID ?? ''),
    enabled: userID !== null,
    retry: shouldRetry,
  });
}

export function useDeleteProjectUser(scope: ProjectScopeIds) {
  const api = useProjectUsersApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userID: string) => api.deleteUser(scope, userID),
    onSuccess: (_answer, userID) => {
      queryClient.removeQueries({ queryKey: projectUserKeys.user(scope, userID) });
      void queryClient.invalidateQueries({ queryKey: projectUserKeys.all(scope) });
    },
  });
}

/** Adds a user by hand; the lists are read again. */
export function useAddProjectUser(scope: ProjectScopeIds) {
  const api = useProjectUsersApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: NewProjectUser) => api.addUser(scope, draft),
    onSuccess: (user) => {
      queryClient.setQueryData(projectUserKeys.user(scope, user.userID), user);
      void queryClient.invalidateQueries({ queryKey: projectUserKeys.all(scope) });
    },
  });
}

/** Replaces a user's groups; the user as answered is kept, and the lists are read again. */
export function useSetUserGroups(scope: ProjectScopeIds) {
  const api = useProjectUsersApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userID, groupIDs }: { userID: string; groupIDs: string[] }) => api.setUserGroups(scope, userID, groupIDs),
    onSuccess: (user) => {
      queryClient.setQueryData(projectUserKeys.user(scope, user.userID), user);
      void queryClient.invalidateQueries({ queryKey: projectUserKeys.all(scope) });
    },
  });
}

export function useSendPasswordReset(scope: ProjectScopeIds) {
  const api = useProjectUsersApi();
  return useMutation({ mutationFn: (email: string) => api.sendPasswordReset(scope, email) });
}

export function useUserGroups(scope: ProjectScopeIds, options: { enabled?: boolean } = {}) {
  const api = useProjectUsersApi();
  return useQuery({ queryKey: projectUserKeys.groups(scope), queryFn: () => api.groups(scope), enabled: options.enabled ?? true, retry: shouldRetry });
}

export function useCreateUserGroup(scope: ProjectScopeIds) {
  const api = useProjectUsersApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: UserGroupDraft) => api.createGroup(scope, draft),
    onSuccess: (group) => {
      queryClient.setQueryData<UserGroup[]>(projectUserKeys.groups(scope), (list) => (list ? [...list.filter((entry) => entry.groupID !== group.groupID), group] : list));
      void queryClient.invalidateQueries({ queryKey: projectUserKeys.groups(scope) });
    },
  });
}

export function useUpdateUserGroup(scope: ProjectScopeIds) {
  const api = useProjectUsersApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (group: UserGroup) => api.updateGroup(scope, group),
    onSuccess: (group) => {
      queryClient.setQueryData<UserGroup[]>(projectUserKeys.groups(scope), (list) => list?.map((entry) => (entry.groupID === group.groupID ? group : entry)));
    },
  });
}

export function useDeleteUserGroup(scope: ProjectScopeIds) {
  const api = useProjectUsersApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (groupID: string) => api.deleteGroup(scope, groupID),
    onSuccess: (_answer, groupID) => {
      queryClient.setQueryData<UserGroup[]>(projectUserKeys.groups(scope), (list) => list?.filter((entry) => entry.groupID !== groupID));
      // A user's groups may have named it.
      void queryClient.invalidateQueries({ queryKey: projectUserKeys.all(scope) });
    },
  });
}

export function useItemUsers(place: ItemPlace, options: { enabled?: boolean } = {}) {
  const api = useProjectUsersApi();
  return useQuery({ queryKey: projectUserKeys.itemUsers(place), queryFn: () => api.itemUsers(place), enabled: options.enabled ?? true, retry: shouldRetry });
}

/** Adds (`add: true`) or removes an app user on an item; the item's list is read again either way. */
export function useChangeItemUser(place: ItemPlace) {
  const api = useProjectUsersApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userID, add }: { userID: string; add: boolean }) => (add ? api.addItemUser(place, userID) : api.removeItemUser(place, userID)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectUserKeys.itemUsers(place) }),
  });
}

export function useResetAppUserPassword() {
  const api = useProjectUsersApi();
  return useMutation({ mutationFn: ({ resetID, password }: { resetID: string; password: string }) => api.resetAppUserPassword(resetID, password) });
}
