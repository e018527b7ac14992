/** The route table against every route, child and parameter, the public set, the titles. */
import { describe, expect, it } from 'vitest';
import { hasMessage } from '../../definitions/messages/format.ts';
import { routePath, routeTemplate } from '../../definitions/route-path.ts';
import { reservedParamValues, routes, type RouteDefinition } from '../../definitions/routes.ts';

const flat = (list: readonly RouteDefinition[]): RouteDefinition[] => list.flatMap((route) => [route, ...flat(route.children ?? [])]);
const all = flat(routes);
const byName = (name: string) => all.find((route) => route.name === name || route.aliases?.includes(name));

/** Full paths of every route, `{param}` for a parameter (parents named without a path: our choice, noted). */
const specPaths: Record<string, string> = {
  home: '/',
  dovs: '/dovs',
  admin: '/admin',
  metrics: '/admin/metrics',
  billingAdmin: '/admin/billing',
  userAdmin: '/admin/users',
  adminOrgSettings: '/admin/billing/organization/{organizationID}/settings',
  questionnaire: '/questionnaire',
  joinOrganization: '/join/{id}',
  confirmUserEmail: '/confirm/{id}',
  newOrganization: '/newOrganization',
  organization: '/organization/{organizationID}',
  organizationSettings: '/organization/{organizationID}/settings',
  creditCardBillingComplete: '/billingComplete',
  viewProject: '/organization/{organizationID}/project/{projectID}',
  'bagel-auth-reset-password': '/bagel-auth-reset-password/{resetID}',
  login: '/login',
  forgotPassword: '/forgotPassword',
  resetPassword: '/resetPassword/{token}',
  signup: '/signup',
  notFound: '/*',
  viewProjectSettings: '/organization/{organizationID}/project/{projectID}/settings',
  newAPIKey: '/organization/{organizationID}/project/{projectID}/newAPIKey',
  viewWebhooks: '/organization/{organizationID}/project/{projectID}/webhooks',
  viewWebhook: '/organization/{organizationID}/project/{projectID}/webhooks/{webhookID}',
  viewBagelStudio: '/organization/{organizationID}/project/{projectID}/bagelstudio',
  viewMail: '/organization/{organizationID}/project/{projectID}/mail',
  viewUsers: '/organization/{organizationID}/project/{projectID}/auth/users',
  viewRoles: '/organization/{organizationID}/project/{projectID}/auth/viewRoles',
  createCollection: '/organization/{organizationID}/project/{projectID}/collection/new',
  viewCollection: '/organization/{organizationID}/project/{projectID}/collection/{collectionID}',
  viewSingleItem: '/organization/{organizationID}/project/{projectID}/collection/{collectionID}',
  addItemToCollection: '/organization/{organizationID}/project/{projectID}/collection/{collectionID}/item',
  viewItem: '/organization/{organizationID}/project/{projectID}/collection/{collectionID}/item/{itemID}',
  viewNestedCollection: '/organization/{organizationID}/project/{projectID}/collection/{collectionID}/item/{itemID}/nestedID/{nestedID}',
  editCollection: '/organization/{organizationID}/project/{projectID}/collection/{collectionID}/edit',
  viewIntegrations: '/organization/{organizationID}/project/{projectID}/integrations',
  viewIntegration: '/organization/{organizationID}/project/{projectID}/integration/{integrationID}',
  viewFunctions: '/organization/{organizationID}/project/{projectID}/functions',
  viewFunction: '/organization/{organizationID}/project/{projectID}/function/{functionName}',
};

describe('route table', () => {
  it.each(Object.entries(specPaths))('%s is at %s', (name, path) => {
    expect(routeTemplate(name)).toBe(path);
  });

  it('names a path for the parents and the child named without one', () => {
    expect(routeTemplate('collection')).toBe('/organization/{organizationID}/project/{projectID}/collection');
    expect(routeTemplate('auth')).toBe('/organization/{organizationID}/project/{projectID}/auth');
    expect(routeTemplate('nestedItem')).toMatch(/\/nestedID\/\{nestedID\}\/item\/\{collectionNestedID\}$/);
  });

  it('has the bare project path as the project index (NoCollectionSelected)', () => {
    const project = byName('viewProject')!;
    expect(project.children!.filter((child) => child.path === undefined)).toHaveLength(1);
  });

  it('uses every route parameter', () => {
    const params = new Set(all.flatMap((route) => [...(route.path ?? '').matchAll(/\{(\w+)\}/g)].map((m) => m[1])));
    for (const param of ['organizationID', 'projectID', 'collectionID', 'itemID', 'nestedID', 'webhookID', 'integrationID', 'id', 'resetID', 'token', 'collectionNestedID']) {
      expect(params, param).toContain(param);
    }
  });

  it('gives every route a unique name and a title in the catalogue', () => {
    const names = all.flatMap((route) => [route.name, ...(route.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    for (const route of all) expect(hasMessage(route.title), route.name).toBe(true);
  });

  it('leaves public exactly the public routes (plus the Dev mailbox and not-found pages)', () => {
    const open = routes.filter((route) => !route.guards?.includes('signedIn')).map((route) => route.name).sort();
    expect(open).toEqual(
      ['bagel-auth-reset-password', 'bagel-auth-verify-email', 'confirmUserEmail', 'devMailbox', 'forgotPassword', 'joinOrganization', 'login', 'notFound', 'resetPassword', 'signup'].sort(),
    );
  });

  it('attaches the guards by name', () => {
    expect(byName('home')!.guards).toContain('home');
    expect(byName('login')!.guards).toEqual(['signedOut']);
    expect(byName('confirmUserEmail')!.guards).toEqual(['confirmUserEmail']);
    expect(byName('joinOrganization')!.guards).toEqual(['joinOrganization']);
    expect(byName('organization')!.guards).toContain('organizationMember');
    // Billing problems divert everything except organization and organizationSettings, and
    // /billingComplete, where a card update (the way out of a billing problem) lands.
    const signedIn = routes.filter((route) => route.guards?.includes('signedIn'));
    for (const route of signedIn) {
      const exempt = ['organization', 'organizationSettings', 'creditCardBillingComplete'].includes(route.name);
      expect(route.guards!.includes('billingStatus'), route.name).toBe(!exempt);
    }
  });

  it('reserves `new`, the createCollection path, as a collection id', () => {
    expect(reservedParamValues.collectionID).toContain('new');
    expect(byName('createCollection')!.path).toBe('new');
  });

  it('builds links by route name', () => {
    expect(routePath('viewItem', { organizationID: 'o 1', projectID: 'p', collectionID: 'c', itemID: 'i' })).toBe(
      '/organization/o%201/project/p/collection/c/item/i',
    );
    expect(routePath('login', {}, { returnUrl: '/dovs', inviteID: undefined })).toBe('/login?returnUrl=%2Fdovs');
    expect(() => routePath('viewProject', { organizationID: 'o' })).toThrow(/projectID/);
  });
});
