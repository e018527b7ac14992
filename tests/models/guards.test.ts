/**
 * Model-based tests of the guards' decisions:
 * - home and organizationMember over a browsing session: the user opens home, their own
 *   organizations and a foreign one, loses memberships, and their session ends and comes back;
 *   the model says where each opening lands and which organization is remembered.
 * - joinOrganization over every answer of the invite calls, signed in and out.
 * - billingStatus over a failing organization's ages and the routes with and without an
 *   organization of the user's, then with billing off, signed out, or the organization unreadable.
 * Every shortest path is replayed against the real guards with their I/O answered by the test.
 */
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { formatMessage, type MessageKey } from '../../definitions/messages/format.ts';
import type { Guard } from '../../renderers/router/types.ts';
import type { Me } from '../../src/api/auth.ts';
import { ApiError } from '../../src/api/errors.ts';
import type { Invite } from '../../src/api/platform.ts';
import { createBillingStatusGuard } from '../../src/guards/billing-status.ts';
import { createHomeGuard } from '../../src/guards/home.ts';
import { createJoinOrganizationGuard } from '../../src/guards/join-organization.ts';
import type { MeOrRedirect } from '../../src/guards/load-me.ts';
import { createOrganizationMemberGuard } from '../../src/guards/organization-member.ts';
import { loginRedirect } from '../../src/shell/login-redirect.ts';
import { deferred, settle, type Deferred } from '../unit/support/deferred.ts';

const run = (guard: Guard, path: string, params: Record<string, string> = {}) =>
  guard({ url: new URL(path, 'http://console.test'), params, signal: new AbortController().signal });

// ---------------------------------------------------------------------------------------------
// home + organizationMember

type Org = 'org-1' | 'org-2';

interface BrowsingContext {
  organizations: Org[];
  last: Org | null;
  signedIn: boolean;
}

const organizationPath = (id: string) => `/organization/${id}`;

const browsingModel = setup({
  types: {
    context: {} as BrowsingContext,
    events: {} as
      | { type: 'OPEN_HOME' }
      | { type: 'OPEN_ORG_1' }
      | { type: 'OPEN_ORG_2' }
      | { type: 'OPEN_FOREIGN' }
      | { type: 'REMOVED_FROM_ORG_2' }
      | { type: 'REMOVED_FROM_ALL' }
      | { type: 'SESSION_ENDS' }
      | { type: 'SIGNS_IN' },
  },
  guards: {
    signedOut: ({ context }) => !context.signedIn,
    lastIsOwn: ({ context }) => context.last !== null && context.organizations.includes(context.last),
    hasOrganizations: ({ context }) => context.organizations.length > 0,
    memberOf: ({ context }, params: { id: Org }) => context.organizations.includes(params.id),
  },
}).createMachine({
  id: 'browsing',
  context: { organizations: ['org-1', 'org-2'], last: null, signedIn: true },
  initial: 'idle',
  on: {
    OPEN_HOME: [
      { guard: 'signedOut', target: '.toLogin' },
      { guard: 'lastIsOwn', target: '.toLastOrganization' },
      { guard: 'hasOrganizations', target: '.toFirstOrganization' },
      { target: '.stays' },
    ],
    OPEN_ORG_1: [
      { guard: 'signedOut', target: '.toLogin' },
      { guard: { type: 'memberOf', params: { id: 'org-1' } }, target: '.allowed', actions: assign({ last: 'org-1' }) },
      { guard: 'hasOrganizations', target: '.toFirstOrganization' },
      { target: '.toHome' },
    ],
    OPEN_ORG_2: [
      { guard: 'signedOut', target: '.toLogin' },
      { guard: { type: 'memberOf', params: { id: 'org-2' } }, target: '.allowed', actions: assign({ last: 'org-2' }) },
      { guard: 'hasOrganizations', target: '.toFirstOrganization' },
      { target: '.toHome' },
    ],
    OPEN_FOREIGN: [
      { guard: 'signedOut', target: '.toLogin' },
      { guard: 'hasOrganizations', target: '.toFirstOrganization' },
      { target: '.toHome' },
    ],
    REMOVED_FROM_ORG_2: { target: '.idle', actions: assign({ organizations: ({ context }) => context.organizations.filter((id) => id !== 'org-2') }) },
    REMOVED_FROM_ALL: { target: '.idle', actions: assign({ organizations: [] }) },
    SESSION_ENDS: { target: '.idle', actions: assign({ signedIn: false }) },
    SIGNS_IN: { target: '.idle', actions: assign({ signedIn: true }) },
  },
  states: {
    idle: {},
    allowed: {},
    toLastOrganization: {},
    toFirstOrganization: {},
    toHome: {},
    stays: {},
    toLogin: {},
  },
});

function browsingHarness() {
  const world = { organizations: ['org-1', 'org-2'] as string[], last: null as string | null, signedIn: true };
  let outcome: string | undefined | void = 'not opened';
  let opened = '';
  const loadMe = async (url: URL): Promise<MeOrRedirect> =>
    world.signedIn ? { ok: true, me: { organizations: [...world.organizations] } as Me } : { ok: false, redirect: loginRedirect(url) };
  const organizationMember = createOrganizationMemberGuard({ loadMe, rememberOrganization: (id) => void (world.last = id) });
  const home = createHomeGuard({ loadMe, lastOrganization: () => world.last });
  return {
    world,
    get outcome() {
      return outcome;
    },
    get opened() {
      return opened;
    },
    openHome: async () => {
      opened = '/';
      outcome = await run(home, opened);
    },
    openOrganization: async (id: string) => {
      opened = organizationPath(id);
      outcome = await run(organizationMember, opened, { organizationID: id });
    },
  };
}

describe('home and organization guards model', () => {
  const testModel = createTestModel(browsingModel, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('covers every decision', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => String(step.state.value))));
    expect([...reached].sort()).toEqual(['allowed', 'idle', 'stays', 'toFirstOrganization', 'toHome', 'toLastOrganization', 'toLogin']);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const harness = browsingHarness();
      await path.test({
        events: {
          OPEN_HOME: () => harness.openHome(),
          OPEN_ORG_1: () => harness.openOrganization('org-1'),
          OPEN_ORG_2: () => harness.openOrganization('org-2'),
          OPEN_FOREIGN: () => harness.openOrganization('org-x'),
          REMOVED_FROM_ORG_2: () => {
            harness.world.organizations = harness.world.organizations.filter((id) => id !== 'org-2');
          },
          REMOVED_FROM_ALL: () => {
            harness.world.organizations = [];
          },
          SESSION_ENDS: () => {
            harness.world.signedIn = false;
          },
          SIGNS_IN: () => {
            harness.world.signedIn = true;
          },
        },
        states: {
          idle: () => undefined,
          allowed: (state) => {
            expect(harness.outcome).toBeUndefined();
            // The organization opened is remembered for home.
            expect(harness.world.last).toBe(state.context.last);
            expect(organizationPath(state.context.last ?? '')).toBe(harness.opened);
          },
          toLastOrganization: (state) => expect(harness.outcome).toBe(organizationPath(state.context.last!)),
          toFirstOrganization: (state) => expect(harness.outcome).toBe(organizationPath(state.context.organizations[0]!)),
          toHome: () => expect(harness.outcome).toBe('/'),
          stays: () => expect(harness.outcome).toBeUndefined(),
          // Signed out: login, coming back to what was opened.
          toLogin: () => expect(harness.outcome).toBe(loginRedirect(harness.opened)),
        },
      });
      // Whatever happened, only an organization of the user's was ever remembered.
      const { last } = harness.world;
      if (last !== null) expect(['org-1', 'org-2']).toContain(last);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// joinOrganization

const INVITE_ID = 'Zx9-invite-secret-0123456789';
const ORGANIZATION_ID = 'a1b2c3d4e5f6a1b2c3d4e5f6';
const OTHER_EMAIL_DETAIL = 'This invitation was sent to another e-mail address.';

type Toast = { kind: 'success' | 'error'; key: MessageKey; values?: Record<string, unknown> };

interface JoinContext {
  signedIn: boolean;
  redirect: string | null;
  toast: Toast | null;
  joined: boolean;
}

const joinModel = setup({
  types: {
    context: {} as JoinContext,
    events: {} as
      | { type: 'OPEN_SIGNED_IN' }
      | { type: 'OPEN_SIGNED_OUT' }
      | { type: 'INVITE_FOR_VERIFIED_USER' }
      | { type: 'INVITE_FOR_NEW_USER' }
      | { type: 'INVITE_NOT_FOUND' }
      | { type: 'INVITE_MALFORMED' }
      | { type: 'INVITE_READ_FAILED' }
      | { type: 'ACCEPTED' }
      | { type: 'ACCEPT_OTHER_EMAIL' }
      | { type: 'ACCEPT_NOT_FOUND' }
      | { type: 'ACCEPT_SESSION_ENDED' },
  },
  guards: { signedIn: ({ context }) => context.signedIn },
}).createMachine({
  id: 'join',
  context: { signedIn: false, redirect: null, toast: null, joined: false },
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN_SIGNED_IN: { target: 'reading', actions: assign({ signedIn: true }) },
        OPEN_SIGNED_OUT: { target: 'reading', actions: assign({ signedIn: false }) },
      },
    },
    reading: {
      on: {
        INVITE_FOR_VERIFIED_USER: [
          { guard: 'signedIn', target: 'accepting' },
          { target: 'done', actions: assign({ redirect: `/login?inviteID=${INVITE_ID}` }) },
        ],
        INVITE_FOR_NEW_USER: [
          { guard: 'signedIn', target: 'accepting' },
          { target: 'done', actions: assign({ redirect: `/signup?inviteID=${INVITE_ID}` }) },
        ],
        INVITE_NOT_FOUND: {
          target: 'done',
          actions: assign({ redirect: ({ context }) => (context.signedIn ? '/' : '/login'), toast: { kind: 'error', key: 'invite.notFound' } }),
        },
        // The server refuses a malformed id (400) before looking: as good as not found.
        INVITE_MALFORMED: {
          target: 'done',
          actions: assign({ redirect: ({ context }) => (context.signedIn ? '/' : '/login'), toast: { kind: 'error', key: 'invite.notFound' } }),
        },
        INVITE_READ_FAILED: {
          target: 'done',
          actions: assign({
            redirect: ({ context }) => (context.signedIn ? '/' : '/login'),
            // The console words every problem code from the catalogue, never the server's own detail.
            toast: { kind: 'error', key: 'invite.acceptFailed', values: { detail: formatMessage('problem.internal') } },
          }),
        },
      },
    },
    accepting: {
      on: {
        ACCEPTED: {
          target: 'done',
          actions: assign({ redirect: `/organization/${ORGANIZATION_ID}`, toast: { kind: 'success', key: 'invite.accepted' }, joined: true }),
        },
        ACCEPT_OTHER_EMAIL: {
          target: 'done',
          actions: assign({ redirect: '/', toast: { kind: 'error', key: 'invite.acceptFailed', values: { detail: OTHER_EMAIL_DETAIL } } }),
        },
        ACCEPT_NOT_FOUND: { target: 'done', actions: assign({ redirect: '/', toast: { kind: 'error', key: 'invite.notFound' } }) },
        // Signed in again, the login flow brings the user back here with the invite.
        ACCEPT_SESSION_ENDED: { target: 'done', actions: assign({ redirect: `/login?inviteID=${INVITE_ID}` }) },
      },
    },
    done: { type: 'final' },
  },
});

const problem = (status: number, code: string, detail = `${code} detail`) => new ApiError({ status, code, detail });

function joinHarness() {
  const reads: Deferred<Invite>[] = [];
  const accepts: Deferred<{ organizationID: string }>[] = [];
  const toasts: Toast[] = [];
  const joined: string[] = [];
  let signedIn = false;
  let result: Promise<string | undefined | void> | null = null;
  const guard = createJoinOrganizationGuard({
    signedIn: () => signedIn,
    readInvite: (id) => {
      expect(id).toBe(INVITE_ID);
      const answer = deferred<Invite>();
      reads.push(answer);
      return answer.promise;
    },
    acceptInvite: (id) => {
      expect(id).toBe(INVITE_ID);
      const answer = deferred<{ organizationID: string }>();
      accepts.push(answer);
      return answer.promise;
    },
    joined: (id) => void joined.push(id),
    notify: (kind, key, values) => void toasts.push(values ? { kind, key, values } : { kind, key }),
  });
  const invite = (verified: boolean): Invite => ({ email: 'bob@example.com', verified, organizationID: ORGANIZATION_ID, organizationName: 'Acme' });
  const answerRead = async (answer: (d: Deferred<Invite>) => void) => {
    answer(reads.shift()!);
    await settle();
  };
  const answerAccept = async (answer: (d: Deferred<{ organizationID: string }>) => void) => {
    answer(accepts.shift()!);
    await settle();
  };
  return {
    reads,
    accepts,
    toasts,
    joined,
    open(asSignedIn: boolean) {
      signedIn = asSignedIn;
      result = Promise.resolve(run(guard, `/join/${INVITE_ID}`, { id: INVITE_ID }));
    },
    result: () => result!,
    answerRead,
    answerAccept,
    invite,
  };
}

describe('joinOrganization guard model', () => {
  const testModel = createTestModel(joinModel, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('covers every state of the model', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => String(step.state.value))));
    expect([...reached].sort()).toEqual(['accepting', 'closed', 'done', 'reading']);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const harness = joinHarness();
      await path.test({
        events: {
          OPEN_SIGNED_IN: async () => {
            harness.open(true);
            await settle();
          },
          OPEN_SIGNED_OUT: async () => {
            harness.open(false);
            await settle();
          },
          INVITE_FOR_VERIFIED_USER: () => harness.answerRead((d) => d.resolve(harness.invite(true))),
          INVITE_FOR_NEW_USER: () => harness.answerRead((d) => d.resolve(harness.invite(false))),
          INVITE_NOT_FOUND: () => harness.answerRead((d) => d.reject(problem(404, 'invite_not_found', 'Invitation can not be found'))),
          INVITE_MALFORMED: () => harness.answerRead((d) => d.reject(problem(400, 'validation_failed'))),
          INVITE_READ_FAILED: () => harness.answerRead((d) => d.reject(problem(500, 'internal', 'internal detail'))),
          ACCEPTED: () => harness.answerAccept((d) => d.resolve({ organizationID: ORGANIZATION_ID })),
          ACCEPT_OTHER_EMAIL: () => harness.answerAccept((d) => d.reject(problem(403, 'invite_other_email', OTHER_EMAIL_DETAIL))),
          ACCEPT_NOT_FOUND: () => harness.answerAccept((d) => d.reject(problem(404, 'invite_not_found'))),
          ACCEPT_SESSION_ENDED: () => harness.answerAccept((d) => d.reject(problem(401, 'invalid_token'))),
        },
        states: {
          closed: () => expect(harness.reads).toHaveLength(0),
          reading: () => {
            expect(harness.reads).toHaveLength(1);
            expect(harness.accepts).toHaveLength(0);
          },
          accepting: () => {
            expect(harness.accepts).toHaveLength(1);
            expect(harness.toasts).toEqual([]);
          },
          done: async (state) => {
            expect(await harness.result()).toBe(state.context.redirect);
            expect(harness.toasts).toEqual(state.context.toast ? [state.context.toast] : []);
            expect(harness.joined).toEqual(state.context.joined ? [ORGANIZATION_ID] : []);
            // A signed-out visitor's invite is never accepted here: login or signup does it after.
            if (!state.context.signedIn) expect(harness.accepts).toHaveLength(0);
          },
        },
      });
    });
  }
});

// ---------------------------------------------------------------------------------------------
// billingStatus

const DAY_MS = 86_400_000;
const NOW = Date.parse('2026-03-02T09:00:00Z');

/** org-1's charges fail; org-2 is always paid up. `foreign` is an organization that is not the user's. */
type Opened = 'org-1' | 'org-2' | 'none' | 'foreign';
const opens = [
  ['OPEN_PROJECT_OF_ORG_1', 'org-1'],
  ['OPEN_PROJECT_OF_ORG_2', 'org-2'],
  ['OPEN_HOME', 'none'],
  ['OPEN_FOREIGN_IN_ADMIN_AREA', 'foreign'],
] as const;
type OpenEvent = { type: (typeof opens)[number][0] };

interface BillingGuardContext {
  /** Days since org-1's failed charge: null (paid up), 0 (GRACE), 4 (NO_CLIENT), 20 (BLOCK). */
  age: null | 0 | 4 | 20;
  /** The last organization used; home and routes without an organization of the user's stand for it (else the first, org-1). */
  last: 'org-1' | 'org-2' | null;
}

/** Every open in a mode where the answer does not depend on the organization. */
const openAll = (target: string) => Object.fromEntries(opens.map(([type]) => [type, { target }]));

const billingGuardModel = setup({
  types: {
    context: {} as BillingGuardContext,
    events: {} as
      | OpenEvent
      | { type: 'CHARGE_FAILS' }
      | { type: 'DAYS_PASS' }
      | { type: 'CARD_UPDATED' }
      | { type: 'LAST_IS_ORG_1' }
      | { type: 'LAST_IS_ORG_2' }
      | { type: 'BILLING_OFF' }
      | { type: 'SESSION_ENDS' }
      | { type: 'ORGANIZATION_READ_FAILS' },
  },
  guards: {
    paidUp: ({ context }) => context.age === null,
    ageing: ({ context }) => context.age === 0 || context.age === 4,
    unpaid: ({ context }) => context.age !== null,
    unpaidCurrent: ({ context }) => context.age !== null && context.last !== 'org-2',
    org1Unpaid: ({ context }, params: { opened: Opened }) => {
      const current = params.opened === 'org-1' || params.opened === 'org-2' ? params.opened : (context.last ?? 'org-1');
      return current === 'org-1' && context.age !== null;
    },
  },
}).createMachine({
  id: 'billingGuard',
  context: { age: null, last: null },
  initial: 'billingOn',
  states: {
    billingOn: {
      initial: 'idle',
      on: {
        ...Object.fromEntries(
          opens.map(([type, opened]) => [
            type,
            [{ guard: { type: 'org1Unpaid', params: { opened } }, target: '.toSettingsOfOrg1' }, { target: '.allowed' }],
          ]),
        ),
        CHARGE_FAILS: { guard: 'paidUp', target: '.idle', actions: assign({ age: 0 }) },
        DAYS_PASS: { guard: 'ageing', target: '.idle', actions: assign({ age: ({ context }) => (context.age === 0 ? 4 : 20) }) },
        CARD_UPDATED: { guard: 'unpaid', target: '.idle', actions: assign({ age: null }) },
        LAST_IS_ORG_1: { target: '.idle', actions: assign({ last: 'org-1' }) },
        LAST_IS_ORG_2: { target: '.idle', actions: assign({ last: 'org-2' }) },
        // The modes where the organization does not matter are entered from an unpaid org-1 only
        // (the case they must not divert), which keeps the paths few.
        BILLING_OFF: { guard: 'unpaidCurrent', target: 'billingOff' },
        SESSION_ENDS: { guard: 'unpaidCurrent', target: 'signedOut' },
        ORGANIZATION_READ_FAILS: { guard: 'unpaidCurrent', target: 'unreadable' },
      },
      states: { idle: {}, allowed: {}, toSettingsOfOrg1: {} },
    },
    /** BILLING=0: nothing is diverted, nothing read. */
    billingOff: { initial: 'idle', on: openAll('.allowed'), states: { idle: {}, allowed: {} } },
    signedOut: { initial: 'idle', on: openAll('.toLogin'), states: { idle: {}, toLogin: {} } },
    /** The organization cannot be read: let through (the organization guards answer for it). */
    unreadable: { initial: 'idle', on: openAll('.allowed'), states: { idle: {}, allowed: {} } },
  },
});

function billingGuardHarness() {
  const world = { failedAt: null as number | null, billing: true, readFails: false, last: null as string | null, signedIn: true };
  const reads: string[] = [];
  let outcome: string | undefined | void = 'not opened';
  let opened = '';
  const guard = createBillingStatusGuard({
    billingEnabled: async () => world.billing,
    loadMe: async (url) => (world.signedIn ? { ok: true, me: { organizations: ['org-1', 'org-2'] } as Me } : { ok: false, redirect: loginRedirect(url) }),
    lastOrganization: () => world.last,
    failedDate: async (organizationID) => {
      reads.push(organizationID);
      if (world.readFails) throw problem(500, 'internal');
      return organizationID === 'org-1' && world.failedAt !== null ? new Date(world.failedAt).toISOString() : null;
    },
    // The server's windows, wider in GRACE than the defaults: every failed status diverts all the same.
    windows: async () => ({ GRACE: { from: 0, to: 5 }, NO_CLIENT: { from: 6, to: 14 }, BLOCK: { from: 15, to: 30 } }),
    now: () => NOW,
  });
  const places: Record<Opened, { path: string; params: Record<string, string> }> = {
    'org-1': { path: '/organization/org-1/project/p1', params: { organizationID: 'org-1', projectID: 'p1' } },
    'org-2': { path: '/organization/org-2/project/p2', params: { organizationID: 'org-2', projectID: 'p2' } },
    none: { path: '/', params: {} },
    // The router hands a parent's guard the whole URL's params: the admin area sees another organization's id.
    foreign: { path: '/admin/billing/organization/org-x/settings', params: { organizationID: 'org-x' } },
  };
  const open = async (which: Opened) => {
    reads.length = 0;
    opened = places[which].path;
    outcome = await run(guard, opened, places[which].params);
  };
  return {
    world,
    reads,
    get outcome() {
      return outcome;
    },
    get opened() {
      return opened;
    },
    events: {
      ...(Object.fromEntries(opens.map(([type, which]) => [type, () => open(which)])) as Record<OpenEvent['type'], () => Promise<void>>),
      CHARGE_FAILS: () => void (world.failedAt = NOW - 60_000),
      DAYS_PASS: () => {
        const age = Math.floor((NOW - (world.failedAt ?? NOW)) / DAY_MS);
        world.failedAt = NOW - (age === 0 ? 4 : 20) * DAY_MS - 60_000;
      },
      CARD_UPDATED: () => void (world.failedAt = null),
      LAST_IS_ORG_1: () => void (world.last = 'org-1'),
      LAST_IS_ORG_2: () => void (world.last = 'org-2'),
      BILLING_OFF: () => void (world.billing = false),
      SESSION_ENDS: () => void (world.signedIn = false),
      ORGANIZATION_READ_FAILS: () => void (world.readFails = true),
    },
  };
}

describe('billingStatus guard model', () => {
  const testModel = createTestModel(billingGuardModel, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('covers every decision', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.value))));
    expect([...reached].sort()).toEqual(
      [
        { billingOn: 'idle' },
        { billingOn: 'allowed' },
        { billingOn: 'toSettingsOfOrg1' },
        { billingOff: 'idle' },
        { billingOff: 'allowed' },
        { signedOut: 'idle' },
        { signedOut: 'toLogin' },
        { unreadable: 'idle' },
        { unreadable: 'allowed' },
      ]
        .map((value) => JSON.stringify(value))
        .sort(),
    );
  });

  for (const path of paths) {
    it(path.description, async () => {
      const harness = billingGuardHarness();
      const allowed = () => {
        expect(harness.outcome).toBeUndefined();
        // An organization that is not the user's is never read (a platform admin in another organization's pages).
        expect(harness.reads).not.toContain('org-x');
      };
      await path.test({
        events: harness.events,
        states: {
          'billingOn.allowed': allowed,
          'billingOn.toSettingsOfOrg1': () => {
            expect(harness.outcome).toBe('/organization/org-1/settings');
            expect(harness.reads).toEqual(['org-1']);
          },
          'billingOff.allowed': () => {
            allowed();
            expect(harness.reads).toEqual([]);
          },
          'signedOut.toLogin': () => expect(harness.outcome).toBe(loginRedirect(harness.opened)),
          'unreadable.allowed': allowed,
        },
      });
    });
  }
});
