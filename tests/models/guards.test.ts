/**
 * Model-based tests of the guards' decisions:
 * - home and organizationMember over a browsing session: the user opens home, their own
 *   organizations and a foreign one, loses memberships, and their session ends and comes back;
 *   the model says where each opening lands and which organization is remembered.
 * - joinOrganization over every answer of the invite calls, signed in and out.
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
