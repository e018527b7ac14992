/**
 * The console's route table. The router is built from this table by
 * `renderers/router`; screens, layouts and guards are named here and looked up in registries, so
 * adding a route is a row here plus, for a real screen, one entry in the screen registry.
 *
 * Paths are written in one notation: relative to the parent, `{param}` for a parameter,
 * no path for the parent's index, `*` for the catch-all.
 */
import type { MessageKey } from './messages/format.ts';

/** Guards run before a route is shown, from the outermost route inward, in the order listed. */
export const guardNames = [
  /** A token is required; without one the user goes to login with returnUrl. */
  'signedIn',
  /** Login while signed in goes to `/`. */
  'signedOut',
  /** `/` goes to the last used organization, else the first; with none it stays. */
  'home',
  /** Signed in: confirm and go home. Otherwise: go to login with confirmID. */
  'confirmUserEmail',
  /** A requested organization that is not one of the user's goes to the user's first. */
  'organizationMember',
  /** Reads the invite and accepts it, or sends the user to login or signup with inviteID. */
  'joinOrganization',
  /** Billing status BLOCK, NO_CLIENT or GRACE diverts to organizationSettings. */
  'billingStatus',
  /** The platform admin area is for platform super-admins (our choice of rule). */
  'platformAdmin',
] as const;
export type GuardName = (typeof guardNames)[number];

/** Screens built so far; every other route renders the placeholder and says so with `placeholder`. */
export const screenNames = [
  'login',
  'signup',
  'forgotPassword',
  'resetPassword',
  'questionnaire',
  'docs',
  'devMailbox',
  'notFound',
  'home',
  'newOrganization',
  /** The organization page: tabs Overview and Settings, one per route. */
  'organization',
  'joinOrganization',
  /** The project shell: sidebar, menus and the section's screen. */
  'projectShell',
  /** The bare project path (NoCollectionSelected): welcome hints, or a pointer to the menu. */
  'projectHome',
  'projectSettings',
  'newApiToken',
  /** New Collection and Edit Collection: name, id, type, direction and the schema builder. */
  'collectionSettings',
  /** The item list of a collection: header, menu, search, filter, table, paging; the item opens over it. */
  'itemList',
  /** The item page: a new item, an item, a nested item; single-item collections show it in place of the list. */
  'item',
  /** Auth → Users: the project's app users, paged and searched; view, delete, password reset. */
  'projectUsers',
  /** Auth → Groups (viewRoles): user groups and their collection × right matrix. */
  'userGroups',
  /** The public page of an app user's reset link: sets the new password. */
  'appUserResetPassword',
  /** The public page of an app user's verification link: confirms the address on load. */
  'appUserVerifyEmail',
  /** Studio: the project's API workbench and the reference of its generated OpenAPI document. */
  'studio',
  /** Mail: the project's app-user mail templates, sender settings and delivery log. */
  'mail',
  /** Integrations: the project's instances, the catalogue and the add form. */
  'integrations',
  /** One integration instance: its form, enable switch, test, delete and run log. */
  'integration',
  /** Functions: the project's functions, New function, and the project's secrets. */
  'functions',
  /** One function: code editor, versions, test run, triggers, invocation log, delete. */
  'function',
  /** Webhooks: the list or its empty state, and the Create Webhook dialog. */
  'webhooks',
  /** One webhook: settings, disabled notice, delivery log with Redeliver. */
  'webhook',
  /** `/billingComplete`: confirms the card session the provider's page returned with, then organization settings. */
  'billingComplete',
  /** The platform admin area's frame: its sub-navigation and the child screen. */
  'adminArea',
  /** Platform metrics with charts over 30 or 90 days. */
  'adminMetrics',
  /** Every organization's billing: server-paged, searchable, sortable; soft launch. */
  'adminBilling',
  /** One organization as super-admins see it: credit, add-ons, billing date, plan, members, projects. */
  'adminOrgSettings',
  /** Every user: search, disable and enable, super-admin, resend verification. */
  'adminUsers',
  /** The audit log of admin actions. */
  'adminAudit',
] as const;
export type ScreenName = (typeof screenNames)[number];

/**
 * The frames a top-level route is drawn in: `auth` (the sign-in card), `console` (the signed-in
 * shell) and `standalone` (pages reachable signed in or out, such as the Dev mailbox).
 */
export const layoutNames = ['auth', 'console', 'standalone'] as const;
export type LayoutName = (typeof layoutNames)[number];

interface RouteBase {
  name: string;
  /** Relative path in the same notation; omitted for the parent's index route. */
  path?: string;
  /** Page title (and the placeholder's heading). */
  title: MessageKey;
  guards?: readonly GuardName[];
  /** Only on top-level routes. */
  layout?: LayoutName;
  /** Query parameters the route reads (documentation; the screens read them). */
  query?: readonly string[];
  /** Other route names this route answers to (two names that share one path). */
  aliases?: readonly string[];
  children?: readonly RouteDefinition[];
}

/**
 * A route with a screen, a placeholder for a screen a later issue builds, or a grouping row
 * (`outlet`) that draws nothing of its own, only the child route that matched.
 */
export type RouteDefinition = RouteBase &
  (
    | { screen: ScreenName; placeholder?: never; outlet?: never }
    | { placeholder: true; screen?: never; outlet?: never }
    | { outlet: true; screen?: never; placeholder?: never; children: readonly RouteDefinition[] }
  );

/** Parameter values a route can never take. `new` is createCollection's path, so no collection is called that. */
export const reservedParamValues: Readonly<Record<string, readonly string[]>> = {
  collectionID: ['new'],
};

const signedIn = ['signedIn', 'billingStatus'] as const;

/** Children of viewProject: the project shell and the content screens. */
const projectChildren: readonly RouteDefinition[] = [
  { name: 'noCollectionSelected', title: 'route.viewProject.title', screen: 'projectHome' },
  { name: 'viewProjectSettings', path: 'settings', title: 'route.viewProjectSettings.title', screen: 'projectSettings' },
  { name: 'newAPIKey', path: 'newAPIKey', title: 'route.newAPIKey.title', screen: 'newApiToken' },
  { name: 'viewWebhooks', path: 'webhooks', title: 'route.viewWebhooks.title', screen: 'webhooks' },
  { name: 'viewWebhook', path: 'webhooks/{webhookID}', title: 'route.viewWebhook.title', screen: 'webhook' },
  { name: 'viewBagelStudio', path: 'bagelstudio', title: 'route.viewBagelStudio.title', screen: 'studio' },
  { name: 'viewMail', path: 'mail', title: 'route.viewMail.title', query: ['tab', 'kind', 'search', 'state', 'template', 'page', 'mail'], screen: 'mail' },
  {
    // A parent named without a path of its own; `auth` matches its section name.
    name: 'auth',
    path: 'auth',
    title: 'route.auth.title',
    outlet: true,
    children: [
      { name: 'viewUsers', path: 'users', title: 'route.viewUsers.title', screen: 'projectUsers' },
      { name: 'viewRoles', path: 'viewRoles', title: 'route.viewRoles.title', screen: 'userGroups' },
    ],
  },
  {
    // A parent named without a path of its own; `collection` keeps content URLs readable.
    name: 'collection',
    path: 'collection',
    title: 'route.collection.title',
    outlet: true,
    children: [
      // A static segment outranks `{collectionID}`, and reservedParamValues forbids the id `new`.
      { name: 'createCollection', path: 'new', title: 'route.createCollection.title', screen: 'collectionSettings' },
      {
        // One route for both names: the screen shows the list or the single item by the collection's type.
        name: 'viewCollection',
        aliases: ['viewSingleItem'],
        path: '{collectionID}',
        title: 'route.viewCollection.title',
        query: ['layout'],
        screen: 'itemList',
        children: [
          { name: 'addItemToCollection', path: 'item', title: 'route.addItemToCollection.title', screen: 'item' },
          {
            name: 'viewItem',
            path: 'item/{itemID}',
            title: 'route.viewItem.title',
            screen: 'item',
            children: [
              {
                // The path `{collectionID}/item/{itemID}/nestedID/{nestedID}`, under viewItem so the
                // parent item's form stays mounted while its nested collections fold out beside it:
                // the item page (viewItem's screen) draws every level itself, so these two rows only
                // name the addresses and draw nothing of their own.
                name: 'viewNestedCollection',
                path: 'nestedID/{nestedID}',
                title: 'route.viewNestedCollection.title',
                outlet: true,
                children: [
                  // Our path: the item open in the innermost nested collection, by its id.
                  { name: 'nestedItem', path: 'item/{collectionNestedID}', title: 'route.nestedItem.title', screen: 'item' },
                ],
              },
            ],
          },
        ],
      },
      { name: 'editCollection', path: '{collectionID}/edit', title: 'route.editCollection.title', screen: 'collectionSettings' },
    ],
  },
  { name: 'viewIntegrations', path: 'integrations', title: 'route.viewIntegrations.title', query: ['add'], screen: 'integrations' },
  { name: 'viewIntegration', path: 'integration/{integrationID}', title: 'route.viewIntegration.title', query: ['page'], screen: 'integration' },
  { name: 'viewFunctions', path: 'functions', title: 'route.viewFunctions.title', screen: 'functions' },
  { name: 'viewFunction', path: 'function/{functionName}', title: 'route.viewFunction.title', screen: 'function' },
];

export const routes: readonly RouteDefinition[] = [
  { name: 'home', path: '/', layout: 'console', title: 'route.home.title', guards: [...signedIn, 'home'], screen: 'home' },
  { name: 'dovs', path: '/dovs', layout: 'console', title: 'route.dovs.title', guards: signedIn, screen: 'docs' },
  {
    name: 'admin',
    path: '/admin',
    layout: 'console',
    title: 'route.admin.title',
    guards: [...signedIn, 'platformAdmin'],
    screen: 'adminArea',
    children: [
      { name: 'adminHome', title: 'route.metrics.title', screen: 'adminMetrics' },
      { name: 'metrics', path: 'metrics', title: 'route.metrics.title', screen: 'adminMetrics' },
      {
        name: 'billingAdmin',
        path: 'billing',
        title: 'route.billingAdmin.title',
        outlet: true,
        children: [
          { name: 'billingAdminList', title: 'route.billingAdmin.title', query: ['search', 'sort', 'order', 'page', 'status'], screen: 'adminBilling' },
          { name: 'adminOrgSettings', path: 'organization/{organizationID}/settings', title: 'route.adminOrgSettings.title', screen: 'adminOrgSettings' },
        ],
      },
      { name: 'userAdmin', path: 'users', title: 'route.userAdmin.title', query: ['search', 'sort', 'order', 'page', 'verified', 'disabled', 'superAdmin'], screen: 'adminUsers' },
      // Ours: the audit log of every admin action (docs/admin.md "Audit log").
      { name: 'auditLog', path: 'audit', title: 'route.auditLog.title', query: ['page', 'action'], screen: 'adminAudit' },
    ],
  },
  { name: 'questionnaire', path: '/questionnaire', layout: 'auth', title: 'route.questionnaire.title', guards: signedIn, screen: 'questionnaire' },
  { name: 'joinOrganization', path: '/join/{id}', layout: 'auth', title: 'route.joinOrganization.title', guards: ['joinOrganization'], screen: 'joinOrganization' },
  { name: 'confirmUserEmail', path: '/confirm/{id}', layout: 'auth', title: 'route.confirmUserEmail.title', guards: ['confirmUserEmail'], placeholder: true },
  { name: 'newOrganization', path: '/newOrganization', layout: 'console', title: 'route.newOrganization.title', guards: signedIn, screen: 'newOrganization' },
  {
    name: 'organization',
    path: '/organization/{organizationID}',
    layout: 'console',
    title: 'route.organization.title',
    // Billing problems divert to organizationSettings, so these two routes stay reachable.
    guards: ['signedIn', 'organizationMember'],
    query: ['billingComplete'],
    screen: 'organization',
  },
  {
    name: 'organizationSettings',
    path: '/organization/{organizationID}/settings',
    layout: 'console',
    title: 'route.organizationSettings.title',
    guards: ['signedIn', 'organizationMember'],
    query: ['view', 'setupCreditCard', 'billingComplete'],
    screen: 'organization',
  },
  {
    name: 'creditCardBillingComplete',
    path: '/billingComplete',
    layout: 'console',
    title: 'route.creditCardBillingComplete.title',
    // Not diverted by the billing status: saving a card here is how an unpaid account recovers.
    guards: ['signedIn'],
    query: ['sessionID'],
    screen: 'billingComplete',
  },
  {
    name: 'viewProject',
    path: '/organization/{organizationID}/project/{projectID}',
    layout: 'console',
    title: 'route.viewProject.title',
    guards: ['signedIn', 'organizationMember', 'billingStatus'],
    screen: 'projectShell',
    children: projectChildren,
  },
  { name: 'bagel-auth-reset-password', path: '/bagel-auth-reset-password/{resetID}', layout: 'auth', title: 'route.bagelAuthResetPassword.title', screen: 'appUserResetPassword' },
  // The link of an app user's verification mail (docs/mail.md): confirms the address on load.
  { name: 'bagel-auth-verify-email', path: '/bagel-auth-verify-email/{verifyID}', layout: 'auth', title: 'route.bagelAuthVerifyEmail.title', screen: 'appUserVerifyEmail' },
  { name: 'login', path: '/login', layout: 'auth', title: 'route.login.title', guards: ['signedOut'], query: ['inviteID', 'confirmID', 'returnUrl'], screen: 'login' },
  { name: 'forgotPassword', path: '/forgotPassword', layout: 'auth', title: 'route.forgotPassword.title', screen: 'forgotPassword' },
  { name: 'resetPassword', path: '/resetPassword/{token}', layout: 'auth', title: 'route.resetPassword.title', screen: 'resetPassword' },
  { name: 'signup', path: '/signup', layout: 'auth', title: 'route.signup.title', query: ['inviteID'], screen: 'signup' },
  // Our own route: the outbox reader of local installs. Public, because a new user reads the
  // confirmation mail before being able to sign in.
  { name: 'devMailbox', path: '/dev/mailbox', layout: 'standalone', title: 'route.devMailbox.title', screen: 'devMailbox' },
  { name: 'notFound', path: '*', layout: 'standalone', title: 'route.notFound.title', screen: 'notFound' },
];
