/**
 * The wire shapes of the platform admin area (`/api/admin/…`, `/api/softLaunch…`,
 * `/api/adminBillingDetails`; docs/admin.md), shared by the server (validation, OpenAPI) and the
 * console (static types). Every call is for platform super-admins only. Amounts are integers in
 * minor units.
 */
import { Type, type Static } from '@sinclair/typebox';
import { billingStatuses } from '../billing/status.ts';
import { adminMetricNames, adminOrganizationSorts, adminUserSorts, auditActions } from '../admin.ts';
import { Nullable, StringOf } from './wire.ts';

const Id = Type.String({ pattern: '^[0-9a-f]{24}$', description: '24-character hex id' });
const IsoDate = Type.String({ description: 'ISO 8601' });
const Order = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);
const Page = Type.Integer({ minimum: 1, maximum: 100_000, default: 1 });
const PerPage = Type.Integer({ minimum: 1, maximum: 100, default: 50 });
const Search = Type.String({ maxLength: 200, description: 'part of a name or e-mail, case-insensitive' });

/** `GET admin/users` query. */
export const AdminUserQuery = Type.Object(
  {
    search: Type.Optional(Search),
    verified: Type.Optional(Type.Boolean()),
    disabled: Type.Optional(Type.Boolean()),
    superAdmin: Type.Optional(Type.Boolean()),
    sort: Type.Optional(Type.Union(adminUserSorts.map((s) => Type.Literal(s)))),
    order: Type.Optional(Order),
    page: Type.Optional(Page),
    perPage: Type.Optional(PerPage),
  },
  { additionalProperties: false },
);
export type AdminUserQuery = Static<typeof AdminUserQuery>;

export const AdminUser = Type.Object(
  {
    id: Id,
    username: Type.String(),
    email: Type.String(),
    verified: Type.Boolean(),
    /** Granted in the database (console or command line). */
    superAdmin: Type.Boolean(),
    /** Named in the configuration (SUPER_ADMIN_USERNAMES, definitions/platform.ts): cannot be revoked here. */
    configuredSuperAdmin: Type.Boolean(),
    disabled: Type.Boolean(),
    disabledDate: Nullable(IsoDate),
    organizations: Type.Array(Type.Object({ id: Id, name: Type.String() }), { description: 'the first 5 by name' }),
    organizationCount: Type.Integer(),
    createdDate: IsoDate,
    lastLoggedIn: Nullable(IsoDate),
  },
  { $id: 'AdminUser' },
);
export type AdminUser = Static<typeof AdminUser>;

export const AdminUserPage = Type.Object({ users: Type.Array(AdminUser), total: Type.Integer(), page: Type.Integer(), perPage: Type.Integer() });
export type AdminUserPage = Static<typeof AdminUserPage>;

/** `PUT admin/users/{userID}/disabled`, `PUT admin/users/{userID}/superAdmin`. */
export const AdminDisabledInput = Type.Object({ disabled: Type.Boolean() }, { additionalProperties: false });
export const AdminSuperAdminInput = Type.Object({ superAdmin: Type.Boolean() }, { additionalProperties: false });

/** `GET admin/organizations` query. */
export const AdminOrganizationQuery = Type.Object(
  {
    search: Type.Optional(Search),
    status: Type.Optional(Type.Union(billingStatuses.map((s) => Type.Literal(s)))),
    sort: Type.Optional(Type.Union(adminOrganizationSorts.map((s) => Type.Literal(s)))),
    order: Type.Optional(Order),
    page: Type.Optional(Page),
    perPage: Type.Optional(PerPage),
  },
  { additionalProperties: false },
);
export type AdminOrganizationQuery = Static<typeof AdminOrganizationQuery>;

const Money = Type.Object({ amount: Type.Integer(), currency: Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 NIS, 2 USD' }) });

export const AdminOrganization = Type.Object(
  {
    id: Id,
    name: Type.String(),
    createdDate: IsoDate,
    planID: Nullable(Type.String({ description: 'null: the free plan' })),
    planName: Type.String(),
    status: Type.Union(billingStatuses.map((s) => Type.Literal(s))),
    seats: Type.Integer(),
    members: Type.Integer(),
    projects: Type.Integer(),
    nextBillingDate: Nullable(IsoDate),
    /** What failed charges left unpaid, in the account's currency (0 when nothing is owed). */
    balance: Money,
    credit: Type.Object({ amount: Type.Integer({ description: 'USD cents' }), nisAmount: Type.Integer({ description: 'agorot' }) }),
    /** On the soft-launch whitelist (billing applies to it while soft launch is on). */
    whitelisted: Type.Boolean(),
  },
  { $id: 'AdminOrganization' },
);
export type AdminOrganization = Static<typeof AdminOrganization>;

export const AdminOrganizationPage = Type.Object({ organizations: Type.Array(AdminOrganization), total: Type.Integer(), page: Type.Integer(), perPage: Type.Integer() });
export type AdminOrganizationPage = Static<typeof AdminOrganizationPage>;

/** `GET admin/organizations/{organizationID}`: the row, its members and its projects. */
export const AdminOrganizationDetail = Type.Object({
  organization: AdminOrganization,
  members: Type.Array(
    Type.Object({ id: Id, email: Type.String(), username: Type.String(), admin: Type.Boolean(), disabled: Type.Boolean(), joinedDate: IsoDate }),
  ),
  projects: Type.Array(Type.Object({ id: Id, name: Type.String(), createdDate: IsoDate, collections: Type.Integer(), items: Type.Integer() })),
});
export type AdminOrganizationDetail = Static<typeof AdminOrganizationDetail>;

/** `PUT billingDetails/plan?organizationID` (super-admins): the plan set without a charge. */
export const AdminPlanOverrideInput = Type.Object({ planID: Nullable(Type.String({ minLength: 1, maxLength: 100 })) }, { additionalProperties: false });

/** `GET/PUT softLaunch`. */
export const SoftLaunch = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false, $id: 'SoftLaunch' });
export type SoftLaunch = Static<typeof SoftLaunch>;

/** `GET/PUT softLaunch/whitelistOrgs`: PUT replaces the whole list. */
export const SoftLaunchWhitelist = Type.Object({ organizationIDs: Type.Array(Id, { maxItems: 10_000, uniqueItems: true }) }, { additionalProperties: false });
export type SoftLaunchWhitelist = Static<typeof SoftLaunchWhitelist>;

/** `GET admin/metrics?days=30|90`. */
export const AdminMetricsQuery = Type.Object({ days: Type.Optional(Type.Union([Type.Literal(30), Type.Literal(90)], { default: 30 })) }, { additionalProperties: false });

export const AdminMetrics = Type.Object({
  days: Type.Integer(),
  /** First and last day of the series (UTC, YYYY-MM-DD). */
  from: Type.String(),
  to: Type.String(),
  /** One value per day, oldest first; a day before the installation or its first job is null. */
  series: Type.Array(Type.Object({ metric: StringOf<(typeof adminMetricNames)[number]>(), values: Type.Array(Nullable(Type.Number())) })),
  /** Figures now. */
  now: Type.Record(Type.String(), Type.Number()),
  plans: Type.Array(Type.Object({ planID: Nullable(Type.String()), planName: Type.String(), organizations: Type.Integer() })),
  /** Monthly recurring revenue of paid plans now (yearly prices over 12), minor units per currency. */
  mrr: Type.Object({ USD: Type.Integer(), NIS: Type.Integer() }),
  /** Failed charges in the window. */
  failedPayments: Type.Integer(),
});
export type AdminMetrics = Static<typeof AdminMetrics>;

/** `GET admin/audit` query. */
export const AuditQuery = Type.Object(
  {
    action: Type.Optional(Type.Union(auditActions.map((a) => Type.Literal(a)))),
    targetKind: Type.Optional(Type.String({ maxLength: 40 })),
    targetID: Type.Optional(Type.String({ maxLength: 100 })),
    page: Type.Optional(Page),
    perPage: Type.Optional(PerPage),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditEntry = Type.Object(
  {
    id: Type.String(),
    at: IsoDate,
    actorID: Nullable(Type.String()),
    actor: Type.String(),
    action: StringOf<(typeof auditActions)[number]>(),
    targetKind: Type.String(),
    targetID: Nullable(Type.String()),
    before: Type.Unknown(),
    after: Type.Unknown(),
  },
  { $id: 'AuditEntry' },
);
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditPage = Type.Object({ entries: Type.Array(AuditEntry), total: Type.Integer(), page: Type.Integer(), perPage: Type.Integer() });
export type AuditPage = Static<typeof AuditPage>;
