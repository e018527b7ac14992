/**
 * Model-based test of the API token form. The model says, for a project
 * with the collection "posts", what the form must hold after each thing a person does: typing a
 * name (or only spaces), toggling posts' read and create, a power flag, User Admin, choosing a
 * user group, and the reset after a token is generated. Every shortest path is replayed against
 * the real tokenFormMachine.
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { blankToken, USER_ADMIN_GROUP_ID, type TokenRole } from '../../definitions/api-tokens.ts';
import { canSubmit, toggleRole, tokenFormMachine } from '../../machines/token-form.ts';

const NAME = 'Website';
const GROUP = 'editors';

interface ModelContext {
  name: string;
  /** The role of "posts": absent, or its read and create flags. */
  posts: { read: boolean; create: boolean } | null;
  powerWrite: boolean;
  userAdmin: boolean;
  group: string | null;
}

const initial: ModelContext = { name: '', posts: null, powerWrite: false, userAdmin: false, group: null };

const flip = (posts: ModelContext['posts'], flag: 'read' | 'create') =>
  posts ? { ...posts, [flag]: !posts[flag] } : { read: flag === 'read', create: flag === 'create' };

const model = setup({
  types: {
    context: {} as ModelContext,
    events: {} as
      | { type: 'TYPE_NAME' }
      | { type: 'TYPE_SPACES' }
      | { type: 'CLEAR_NAME' }
      | { type: 'TOGGLE_POSTS_READ' }
      | { type: 'TOGGLE_POSTS_CREATE' }
      | { type: 'TOGGLE_POWER_WRITE' }
      | { type: 'TOGGLE_USER_ADMIN' }
      | { type: 'SELECT_EDITORS' }
      | { type: 'GENERATED' },
  },
  guards: {
    groupFree: ({ context }) => !context.userAdmin,
  },
}).createMachine({
  id: 'tokenFormModel',
  context: initial,
  initial: 'editing',
  states: {
    editing: {
      on: {
        TYPE_NAME: { actions: assign({ name: NAME }) },
        TYPE_SPACES: { actions: assign({ name: '   ' }) },
        CLEAR_NAME: { actions: assign({ name: '' }) },
        TOGGLE_POSTS_READ: { actions: assign({ posts: ({ context }) => flip(context.posts, 'read') }) },
        TOGGLE_POSTS_CREATE: { actions: assign({ posts: ({ context }) => flip(context.posts, 'create') }) },
        TOGGLE_POWER_WRITE: { actions: assign({ powerWrite: ({ context }) => !context.powerWrite }) },
        // User Admin sets the group to "admin" and locks it; turning it off frees the choice.
        TOGGLE_USER_ADMIN: {
          actions: assign(({ context }) => (context.userAdmin ? { userAdmin: false, group: null } : { userAdmin: true, group: USER_ADMIN_GROUP_ID })),
        },
        SELECT_EDITORS: { guard: 'groupFree', actions: assign({ group: GROUP }) },
        // After a token is generated the form starts blank again.
        GENERATED: { actions: assign(initial) },
      },
    },
  },
});

function expectedRoles(posts: ModelContext['posts']): TokenRole[] {
  return posts ? [{ collection: 'posts', read: posts.read, create: posts.create, update: false, delete: false }] : [];
}

describe('token form model', () => {
  const testModel = createTestModel(model, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('reaches every combination of name, posts role, power flag and group the events allow', () => {
    // Paths that are the start of a longer one are left out, so count the states along the steps.
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.context))));
    // 3 names × 5 roles (none, R, C, RC, a role with both off) × 2 power × 3 groups (none, editors, admin).
    expect(reached.size).toBe(3 * 5 * 2 * 3);
  });

  for (const path of paths) {
    it(path.description, async () => {
      let actor: Actor<typeof tokenFormMachine> | null = null;
      const form = () => {
        actor ??= createActor(tokenFormMachine, { input: {} }).start();
        return actor;
      };
      await path.test({
        events: {
          TYPE_NAME: () => form().send({ type: 'SET_NAME', name: NAME }),
          TYPE_SPACES: () => form().send({ type: 'SET_NAME', name: '   ' }),
          CLEAR_NAME: () => form().send({ type: 'SET_NAME', name: '' }),
          TOGGLE_POSTS_READ: () => form().send({ type: 'TOGGLE_ROLE', collection: 'posts', flag: 'read' }),
          TOGGLE_POSTS_CREATE: () => form().send({ type: 'TOGGLE_ROLE', collection: 'posts', flag: 'create' }),
          TOGGLE_POWER_WRITE: () => form().send({ type: 'TOGGLE_POWER', flag: 'powerWrite' }),
          TOGGLE_USER_ADMIN: () => form().send({ type: 'TOGGLE_USER_ADMIN' }),
          SELECT_EDITORS: () => form().send({ type: 'SELECT_GROUP', groupID: GROUP }),
          GENERATED: () => form().send({ type: 'RESET' }),
        },
        states: {
          editing: (state) => {
            const snapshot = form().getSnapshot();
            const expected = state.context;
            expect(snapshot.context.draft).toEqual({
              ...blankToken,
              name: expected.name,
              powerWrite: expected.powerWrite,
              userAdmin: expected.userAdmin,
              userGroupID: expected.group,
              roles: expectedRoles(expected.posts),
            });
            // Generate and Save need a name that is not blank.
            expect(canSubmit(snapshot)).toBe(expected.name.trim() !== '');
            // The group choice is locked exactly while User Admin is on.
            expect(snapshot.matches({ group: 'locked' })).toBe(expected.userAdmin);
            expect(snapshot.can({ type: 'SELECT_GROUP', groupID: GROUP })).toBe(!expected.userAdmin);
          },
        },
      });
    });
  }
});

describe('token form, editing a saved token', () => {
  const saved = {
    name: 'Mobile app',
    powerRead: true,
    userAdmin: true,
    userGroupID: 'whatever',
    roles: [{ collection: 'posts', create: false, read: true, update: true, delete: false }],
  };

  it('starts from the saved token, the group forced to admin by User Admin', () => {
    const actor = createActor(tokenFormMachine, { input: { token: saved } }).start();
    expect(actor.getSnapshot().context.draft).toMatchObject({ name: 'Mobile app', powerRead: true, userAdmin: true, userGroupID: USER_ADMIN_GROUP_ID });
    expect(actor.getSnapshot().matches({ name: 'named', group: 'locked' })).toBe(true);
  });

  it('returns to the saved token on RESET, and LOAD makes another token the original', () => {
    const actor = createActor(tokenFormMachine, { input: { token: saved } }).start();
    actor.send({ type: 'SET_NAME', name: '' });
    actor.send({ type: 'TOGGLE_ROLE', collection: 'posts', flag: 'update' });
    expect(canSubmit(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'RESET' });
    expect(actor.getSnapshot().context.draft.roles[0]).toMatchObject({ read: true, update: true });
    expect(canSubmit(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'LOAD', token: { name: 'Other' } });
    actor.send({ type: 'SET_NAME', name: 'Changed' });
    actor.send({ type: 'RESET' });
    expect(actor.getSnapshot().context.draft).toEqual({ ...blankToken, name: 'Other' });
  });

  it('adds a role with only the toggled flag, then flips that flag', () => {
    const once = toggleRole([], 'authors', 'delete');
    expect(once).toEqual([{ collection: 'authors', create: false, read: false, update: false, delete: true }]);
    expect(toggleRole(once, 'authors', 'delete')).toEqual([{ collection: 'authors', create: false, read: false, update: false, delete: false }]);
    expect(toggleRole(once, 'posts', 'read')).toHaveLength(2);
  });
});
