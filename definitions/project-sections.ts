/**
 * The project shell's sections: which one is active for a route, and where choosing
 * one goes. Pure, so the rule is tested on its own and every menu (sidebar, bottom navigation,
 * floating menu) follows the same one.
 */
import type { MessageKey } from './messages/format.ts';

export const projectSections = ['collections', 'webhooks', 'auth', 'settings', 'studio', 'mail', 'integrations', 'functions'] as const;
export type ProjectSection = (typeof projectSections)[number];

/**
 * Routes that name their section; every other route of the project gives Collections. newAPIKey
 * belongs to Project Settings (our choice): the token form is reached from the settings'
 * token list, and the first-token prompt must not nag on the very page that answers it.
 */
const sectionByRoute: Readonly<Record<string, ProjectSection>> = {
  viewWebhooks: 'webhooks',
  viewWebhook: 'webhooks',
  auth: 'auth',
  viewUsers: 'auth',
  viewRoles: 'auth',
  viewProjectSettings: 'settings',
  newAPIKey: 'settings',
  viewBagelStudio: 'studio',
  viewMail: 'mail',
  viewIntegrations: 'integrations',
  viewIntegration: 'integrations',
  viewFunctions: 'functions',
  viewFunction: 'functions',
};

/** The active section for the names of the matched routes, outermost first. */
export function activeSection(routeNames: readonly string[]): ProjectSection {
  for (const name of [...routeNames].reverse()) {
    const section = sectionByRoute[name];
    if (section) return section;
  }
  return 'collections';
}

export const sectionLabels: Readonly<Record<ProjectSection, MessageKey>> = {
  collections: 'project.section.collections',
  webhooks: 'project.section.webhooks',
  auth: 'project.section.auth',
  settings: 'project.section.settings',
  studio: 'project.section.studio',
  mail: 'project.section.mail',
  integrations: 'project.section.integrations',
  functions: 'project.section.functions',
};

/** A place in the project: a route name and the parameters it adds to the project's own. */
export interface SectionTarget {
  route: string;
  params?: Record<string, string>;
}

export interface SectionState {
  /** Names of the matched routes, outermost first. */
  routeNames: readonly string[];
  collections: readonly { id: string }[];
  webhooks: readonly { id: string }[];
}

const collectionRoutes = new Set(['createCollection', 'viewCollection', 'viewSingleItem', 'viewNestedCollection', 'editCollection']);

/**
 * Where choosing a section goes, or null to stay where one is: Collections opens the
 * first collection unless one is being created or is already open; Webhooks opens the first
 * webhook; Auth opens users unless the user groups are shown.
 */
export function sectionTarget(section: ProjectSection, state: SectionState): SectionTarget | null {
  const names = new Set(state.routeNames);
  switch (section) {
    case 'collections': {
      if ([...names].some((name) => collectionRoutes.has(name))) return null;
      const first = state.collections[0];
      return first ? { route: 'viewCollection', params: { collectionID: first.id } } : { route: 'noCollectionSelected' };
    }
    case 'webhooks': {
      const first = state.webhooks[0];
      return first ? { route: 'viewWebhook', params: { webhookID: first.id } } : { route: 'viewWebhooks' };
    }
    case 'auth':
      return names.has('viewRoles') ? null : { route: 'viewUsers' };
    case 'settings':
      return { route: 'viewProjectSettings' };
    case 'studio':
      return { route: 'viewBagelStudio' };
    case 'mail':
      return { route: 'viewMail' };
    case 'integrations':
      return { route: 'viewIntegrations' };
    case 'functions':
      return { route: 'viewFunctions' };
  }
}

/** The bottom navigation of narrow screens: Home, then three sections. */
export const bottomNavigation = [
  { id: 'home', label: 'project.bottomNav.home' },
  { id: 'collections', label: 'project.section.collections' },
  { id: 'auth', label: 'project.section.auth' },
  { id: 'webhooks', label: 'project.section.webhooks' },
] as const satisfies readonly { id: 'home' | ProjectSection; label: MessageKey }[];

/** Auth is offered, but marked Beta. */
export const betaSections: readonly ProjectSection[] = ['auth'];
