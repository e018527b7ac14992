/**
 * Typed calls of the platform admin area (docs/admin.md): `/api/admin/…` and the billing
 * service's admin calls. Shapes from definitions/schemas/admin.ts; amounts are minor units. All
 * reject with ApiError (403 `super_admin_required` for anyone but a platform super-admin).
 */
import type {
  AdminMetrics,
  AdminOrganizationDetail,
  AdminOrganizationPage,
  AdminOrganizationQuery,
  AdminUser,
  AdminUserPage,
  AdminUserQuery,
  AuditPage,
  AuditQuery,
  SoftLaunch,
  SoftLaunchWhitelist,
} from '../../definitions/schemas/admin.ts';
import type { BillingDetails } from '../../definitions/schemas/billing.ts';
import { getApiClient, type ApiClient } from './client.ts';

export type { AdminMetrics, AdminOrganizationDetail, AdminOrganizationPage, AdminOrganizationQuery, AdminUser, AdminUserPage, AdminUserQuery, AuditPage, AuditQuery, SoftLaunch, SoftLaunchWhitelist };

export interface AddOnInput {
  title: string;
  amount: number;
  nisAmount: number;
}

export interface AdminApi {
  users(query: AdminUserQuery): Promise<AdminUserPage>;
  setUserDisabled(userID: string, disabled: boolean): Promise<AdminUser>;
  setUserSuperAdmin(userID: string, superAdmin: boolean): Promise<AdminUser>;
  resendVerification(userID: string): Promise<void>;
  organizations(query: AdminOrganizationQuery): Promise<AdminOrganizationPage>;
  organization(organizationID: string): Promise<AdminOrganizationDetail>;
  billingDetails(organizationIDs: readonly string[]): Promise<BillingDetails[]>;
  /** Credit in minor units per currency (the console multiplies the typed integer by 100). */
  addCredit(organizationID: string, credit: { amount: number; nisAmount: number }): Promise<BillingDetails>;
  addAddOn(organizationID: string, addOn: AddOnInput): Promise<BillingDetails>;
  replaceAddOns(organizationID: string, addOns: readonly AddOnInput[]): Promise<BillingDetails>;
  setBillingDate(organizationID: string, nextBillingDate: string): Promise<BillingDetails>;
  setPlan(organizationID: string, planID: string | null): Promise<BillingDetails>;
  softLaunch(): Promise<SoftLaunch>;
  setSoftLaunch(enabled: boolean): Promise<SoftLaunch>;
  whitelist(): Promise<SoftLaunchWhitelist>;
  setWhitelist(organizationIDs: readonly string[]): Promise<SoftLaunchWhitelist>;
  metrics(days: 30 | 90): Promise<AdminMetrics>;
  audit(query: AuditQuery): Promise<AuditPage>;
}

/** Query values as the server reads them: absent ones left out. */
function params(query: object): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== '')) as Record<string, string | number | boolean>;
}

export function createAdminApi(client: ApiClient): AdminApi {
  const { json } = client;
  const user = (userID: string) => `api/admin/users/${encodeURIComponent(userID)}`;
  const org = (organizationID: string) => ({ searchParams: { organizationID } });
  return {
    users: (query) => json<AdminUserPage>('api/admin/users', { searchParams: params(query) }),
    setUserDisabled: (userID, disabled) => json<AdminUser>(`${user(userID)}/disabled`, { method: 'put', json: { disabled } }),
    setUserSuperAdmin: (userID, superAdmin) => json<AdminUser>(`${user(userID)}/superAdmin`, { method: 'put', json: { superAdmin } }),
    resendVerification: async (userID) => {
      await client.http.post(`${user(userID)}/resendVerification`);
    },
    organizations: (query) => json<AdminOrganizationPage>('api/admin/organizations', { searchParams: params(query) }),
    organization: (organizationID) => json<AdminOrganizationDetail>(`api/admin/organizations/${encodeURIComponent(organizationID)}`),
    billingDetails: (organizationIDs) => json<BillingDetails[]>('billing/adminBillingDetails', { searchParams: { organizationIDs: organizationIDs.join(',') } }),
    addCredit: (organizationID, credit) => json<BillingDetails>('billing/billingDetails/credit', { method: 'put', ...org(organizationID), json: credit }),
    addAddOn: (organizationID, addOn) => json<BillingDetails>('billing/billingDetails/addOn', { method: 'post', ...org(organizationID), json: addOn }),
    replaceAddOns: (organizationID, addOns) => json<BillingDetails>('billing/billingDetails/addOn', { method: 'put', ...org(organizationID), json: addOns }),
    setBillingDate: (organizationID, nextBillingDate) => json<BillingDetails>('billing/billingDetails/billingDate', { method: 'put', ...org(organizationID), json: { nextBillingDate } }),
    setPlan: (organizationID, planID) => json<BillingDetails>('billing/billingDetails/plan', { method: 'put', ...org(organizationID), json: { planID } }),
    softLaunch: () => json<SoftLaunch>('billing/softLaunch'),
    setSoftLaunch: (enabled) => json<SoftLaunch>('billing/softLaunch', { method: 'put', json: { enabled } }),
    whitelist: () => json<SoftLaunchWhitelist>('billing/softLaunch/whitelistOrgs'),
    setWhitelist: (organizationIDs) => json<SoftLaunchWhitelist>('billing/softLaunch/whitelistOrgs', { method: 'put', json: { organizationIDs } }),
    metrics: (days) => json<AdminMetrics>('api/admin/metrics', { searchParams: { days } }),
    audit: (query) => json<AuditPage>('api/admin/audit', { searchParams: params(query) }),
  };
}

let browserAdminApi: AdminApi | null = null;

/** The admin calls over the page's client. */
export function getAdminApi(): AdminApi {
  browserAdminApi ??= createAdminApi(getApiClient());
  return browserAdminApi;
}
