/**
 * TanStack Query hooks over the admin calls (src/api/admin.ts): thin wrappers, keys in
 * `adminKeys`. Every change invalidates the admin lists it may have moved and the audit log.
 */
import { createContext, useContext } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { getAdminApi, type AddOnInput, type AdminApi, type AdminOrganizationQuery, type AdminUserQuery, type AuditQuery } from './admin.ts';
import { billingKeys } from './billing-queries.ts';
import { shouldRetry } from './queries.ts';

export const adminKeys = {
  all: ['admin'] as const,
  users: (query: AdminUserQuery) => ['admin', 'users', query] as const,
  organizations: (query: AdminOrganizationQuery) => ['admin', 'organizations', 'list', query] as const,
  organization: (organizationID: string) => ['admin', 'organizations', 'one', organizationID] as const,
  billingDetails: (organizationID: string) => ['admin', 'billingDetails', organizationID] as const,
  softLaunch: ['admin', 'softLaunch'] as const,
  whitelist: ['admin', 'softLaunch', 'whitelist'] as const,
  metrics: (days: 30 | 90) => ['admin', 'metrics', days] as const,
  audit: (query: AuditQuery) => ['admin', 'audit', query] as const,
};

const AdminApiContext = createContext<AdminApi | null>(null);

/** Overrides the admin calls for a subtree (tests); without it the page's client is used. */
export const AdminApiProvider = AdminApiContext.Provider;

export function useAdminApi(): AdminApi {
  return useContext(AdminApiContext) ?? getAdminApi();
}

/** An admin change: every admin list may show it (and the audit log has a new entry). */
function invalidateAdmin(queryClient: QueryClient, organizationID?: string) {
  void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  if (organizationID) void queryClient.invalidateQueries({ queryKey: billingKeys.organization(organizationID) });
}

export function useAdminUsers(query: AdminUserQuery) {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.users(query), queryFn: () => api.users(query), placeholderData: keepPreviousData, retry: shouldRetry });
}

export function useSetUserDisabled() {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userID, disabled }: { userID: string; disabled: boolean }) => api.setUserDisabled(userID, disabled),
    onSuccess: () => invalidateAdmin(queryClient),
  });
}

export function useSetUserSuperAdmin() {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userID, superAdmin }: { userID: string; superAdmin: boolean }) => api.setUserSuperAdmin(userID, superAdmin),
    onSuccess: () => invalidateAdmin(queryClient),
  });
}

export function useResendVerification() {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (userID: string) => api.resendVerification(userID), onSuccess: () => invalidateAdmin(queryClient) });
}

export function useAdminOrganizations(query: AdminOrganizationQuery) {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.organizations(query), queryFn: () => api.organizations(query), placeholderData: keepPreviousData, retry: shouldRetry });
}

export function useAdminOrganization(organizationID: string) {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.organization(organizationID), queryFn: () => api.organization(organizationID), retry: shouldRetry });
}

export function useAdminBillingDetails(organizationID: string) {
  const api = useAdminApi();
  return useQuery({
    queryKey: adminKeys.billingDetails(organizationID),
    queryFn: async () => (await api.billingDetails([organizationID]))[0] ?? null,
    retry: shouldRetry,
  });
}

/** The organization-level billing changes of the admin area, each one call. */
export function useAdminBillingChange(organizationID: string) {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const onSuccess = () => invalidateAdmin(queryClient, organizationID);
  return {
    addCredit: useMutation({ mutationFn: (credit: { amount: number; nisAmount: number }) => api.addCredit(organizationID, credit), onSuccess }),
    addAddOn: useMutation({ mutationFn: (addOn: AddOnInput) => api.addAddOn(organizationID, addOn), onSuccess }),
    replaceAddOns: useMutation({ mutationFn: (addOns: readonly AddOnInput[]) => api.replaceAddOns(organizationID, addOns), onSuccess }),
    setBillingDate: useMutation({ mutationFn: (date: string) => api.setBillingDate(organizationID, date), onSuccess }),
    setPlan: useMutation({ mutationFn: (planID: string | null) => api.setPlan(organizationID, planID), onSuccess }),
  };
}

export function useSoftLaunch() {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.softLaunch, queryFn: () => api.softLaunch(), retry: shouldRetry });
}

export function useSetSoftLaunch() {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (enabled: boolean) => api.setSoftLaunch(enabled), onSuccess: () => invalidateAdmin(queryClient) });
}

export function useWhitelist() {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.whitelist, queryFn: () => api.whitelist(), retry: shouldRetry });
}

export function useSetWhitelist() {
  const api = useAdminApi();
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (organizationIDs: readonly string[]) => api.setWhitelist(organizationIDs), onSuccess: () => invalidateAdmin(queryClient) });
}

export function useAdminMetrics(days: 30 | 90) {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.metrics(days), queryFn: () => api.metrics(days), retry: shouldRetry });
}

export function useAudit(query: AuditQuery) {
  const api = useAdminApi();
  return useQuery({ queryKey: adminKeys.audit(query), queryFn: () => api.audit(query), placeholderData: keepPreviousData, retry: shouldRetry });
}
