/** The project shell's section rule: active section by route, where choosing one goes. */
import { describe, expect, it } from 'vitest';
import { activeSection, bottomNavigation, projectSections, sectionTarget, type SectionState } from '../../definitions/project-sections.ts';
import { routeTemplate } from '../../definitions/route-path.ts';

/** The matched route names of a URL under the project, outermost first, as react-router gives them. */
const under = (...names: string[]) => ['root', 'layout:console', 'viewProject', ...names];

describe('activeSection', () => {
  it.each([
    [under('viewWebhooks'), 'webhooks'],
    [under('viewWebhook'), 'webhooks'],
    [under('auth', 'viewUsers'), 'auth'],
    [under('auth', 'viewRoles'), 'auth'],
    [under('viewProjectSettings'), 'settings'],
    [under('newAPIKey'), 'settings'],
    [under('viewBagelStudio'), 'studio'],
    [under('viewMail'), 'mail'],
    [under('viewIntegrations'), 'integrations'],
    [under('viewIntegration'), 'integrations'],
    [under('viewFunctions'), 'functions'],
    [under('viewFunction'), 'functions'],
    [under('noCollectionSelected'), 'collections'],
    [under('collection', 'viewCollection', 'viewItem'), 'collections'],
    [under('collection', 'createCollection'), 'collections'],
    [under(), 'collections'],
  ] as const)('%j gives %s', (names, section) => {
    expect(activeSection(names)).toBe(section);
  });

  it('only ever answers one of the eight sections', () => {
    expect(projectSections).toEqual(['collections', 'webhooks', 'auth', 'settings', 'studio', 'mail', 'integrations', 'functions']);
  });
});

describe('sectionTarget', () => {
  const state = (names: string[], collections = ['posts', 'authors'], webhooks = ['w1', 'w2']): SectionState => ({
    routeNames: under(...names),
    collections: collections.map((id) => ({ id })),
    webhooks: webhooks.map((id) => ({ id })),
  });

  it('Collections opens the first collection', () => {
    expect(sectionTarget('collections', state(['viewWebhooks']))).toEqual({ route: 'viewCollection', params: { collectionID: 'posts' } });
    expect(sectionTarget('collections', state(['noCollectionSelected']))).toEqual({ route: 'viewCollection', params: { collectionID: 'posts' } });
  });

  it('Collections stays while a collection is being created or one is open', () => {
    expect(sectionTarget('collections', state(['collection', 'createCollection']))).toBeNull();
    expect(sectionTarget('collections', state(['collection', 'viewCollection']))).toBeNull();
    expect(sectionTarget('collections', state(['collection', 'viewCollection', 'viewItem']))).toBeNull();
    expect(sectionTarget('collections', state(['collection', 'editCollection']))).toBeNull();
    expect(sectionTarget('collections', state(['collection', 'viewNestedCollection']))).toBeNull();
  });

  it('Collections of a project without collections goes to the project page (its empty state)', () => {
    expect(sectionTarget('collections', state(['viewWebhooks'], []))).toEqual({ route: 'noCollectionSelected' });
  });

  it('Webhooks opens the first webhook, or the webhook list when there is none', () => {
    expect(sectionTarget('webhooks', state([]))).toEqual({ route: 'viewWebhook', params: { webhookID: 'w1' } });
    expect(sectionTarget('webhooks', state([], [], []))).toEqual({ route: 'viewWebhooks' });
  });

  it('Auth opens users unless the user groups are shown', () => {
    expect(sectionTarget('auth', state([]))).toEqual({ route: 'viewUsers' });
    expect(sectionTarget('auth', state(['auth', 'viewUsers']))).toEqual({ route: 'viewUsers' });
    expect(sectionTarget('auth', state(['auth', 'viewRoles']))).toBeNull();
  });

  it('Settings, Studio and Mail open their route', () => {
    expect(sectionTarget('settings', state([]))).toEqual({ route: 'viewProjectSettings' });
    expect(sectionTarget('studio', state([]))).toEqual({ route: 'viewBagelStudio' });
    expect(sectionTarget('mail', state([]))).toEqual({ route: 'viewMail' });
    expect(sectionTarget('integrations', state([]))).toEqual({ route: 'viewIntegrations' });
    expect(sectionTarget('functions', state([]))).toEqual({ route: 'viewFunctions' });
  });

  it('names only routes that exist in the route table', () => {
    const targets = projectSections.flatMap((section) => [sectionTarget(section, state([])), sectionTarget(section, state([], [], []))]);
    for (const target of targets) if (target) expect(routeTemplate(target.route), target.route).toBeDefined();
  });

  it('offers Home, Collections, Auth and Webhooks at the bottom of narrow screens', () => {
    expect(bottomNavigation.map((entry) => entry.id)).toEqual(['home', 'collections', 'auth', 'webhooks']);
  });
});
