/**
 * The platform admin area's closed lists (docs/admin.md): what its tables sort by, the metrics it
 * charts and the actions its audit log records. The server and the console read the same lists.
 */

/** What `GET admin/users` sorts by. */
export const adminUserSorts = ['createdDate', 'email', 'username', 'lastLoggedIn'] as const;
export type AdminUserSort = (typeof adminUserSorts)[number];

/** What `GET admin/organizations` sorts by. */
export const adminOrganizationSorts = ['name', 'createdDate', 'plan', 'status', 'seats', 'nextBillingDate', 'balance', 'credit'] as const;
export type AdminOrganizationSort = (typeof adminOrganizationSorts)[number];

/**
 * The daily figures the metrics screen charts (one row per metric per UTC day in
 * `platform_daily`). Counts of the day: newUsers, verifiedUsers (verified that day), activeUsers
 * (signed in that day), apiCalls, bandwidth (bytes), webhookDeliveries, failedPayments. Levels at
 * the end of the day: organizations, projects, items, storage (bytes), liveConnections (the peak).
 */
export const adminMetricNames = [
  'newUsers',
  'verifiedUsers',
  'activeUsers',
  'organizations',
  'projects',
  'items',
  'storage',
  'apiCalls',
  'bandwidth',
  'webhookDeliveries',
  'liveConnections',
  'failedPayments',
] as const;
export type AdminMetricName = (typeof adminMetricNames)[number];

/** The units of each metric, for the axis and the table beside each chart. */
export const adminMetricUnits: Record<AdminMetricName, 'count' | 'bytes'> = {
  newUsers: 'count',
  verifiedUsers: 'count',
  activeUsers: 'count',
  organizations: 'count',
  projects: 'count',
  items: 'count',
  storage: 'bytes',
  apiCalls: 'count',
  bandwidth: 'bytes',
  webhookDeliveries: 'count',
  liveConnections: 'count',
  failedPayments: 'count',
};

/** Every action the audit log records: the console's admin calls and the command line's. */
export const auditActions = [
  'user.disable',
  'user.enable',
  'user.grantSuperAdmin',
  'user.revokeSuperAdmin',
  'user.resendVerification',
  'user.create',
  'user.resetPassword',
  'organization.addCredit',
  'organization.addAddOn',
  'organization.replaceAddOns',
  'organization.setBillingDate',
  'organization.setPlan',
  'softLaunch.set',
  'softLaunch.setWhitelist',
  'installation.migrate',
  'installation.backup',
  'installation.restore',
  'project.export',
  'project.import',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** What an audit entry's target is. */
export const auditTargetKinds = ['user', 'organization', 'softLaunch', 'installation', 'project'] as const;
export type AuditTargetKind = (typeof auditTargetKinds)[number];
