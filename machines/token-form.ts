/**
 * The API token form. It starts blank (or from a saved token), and:
 * - toggling a collection's flag adds a role with only that flag when the collection has none,
 *   otherwise flips the flag;
 * - turning User Admin on sets the user group to "admin" and locks the group choice;
 * - Generate and Save need a name that is not blank (region `name`: `blank` / `named`).
 * No I/O: the screen sends the draft and answers with RESET once the server has it.
 */
import { assign, not, setup } from 'xstate';
import { blankToken, draftOf, hasTokenName, USER_ADMIN_GROUP_ID, type PowerFlag, type RoleFlag, type TokenDraft, type TokenRole } from '../definitions/api-tokens.ts';

export interface TokenFormContext {
  draft: TokenDraft;
  /** What RESET returns to: blank for a new token, the saved token when editing. */
  original: TokenDraft;
}

export type TokenFormEvent =
  | { type: 'SET_NAME'; name: string }
  | { type: 'TOGGLE_ROLE'; collection: string; flag: RoleFlag }
  | { type: 'TOGGLE_POWER'; flag: PowerFlag }
  | { type: 'TOGGLE_USER_ADMIN' }
  | { type: 'SELECT_GROUP'; groupID: string | null }
  /** Back to the original: after a token is generated, or when an edit is abandoned. */
  | { type: 'RESET' }
  /** Start from a saved token, which becomes the original. */
  | { type: 'LOAD'; token: Partial<TokenDraft> };

export interface TokenFormInput {
  token?: Partial<TokenDraft>;
}

/** Adds a role with only `flag` on when the collection has none; otherwise flips that flag. */
export function toggleRole(roles: readonly TokenRole[], collection: string, flag: RoleFlag): TokenRole[] {
  if (!roles.some((role) => role.collection === collection)) {
    return [...roles, { collection, create: false, read: false, update: false, delete: false, [flag]: true }];
  }
  return roles.map((role) => (role.collection === collection ? { ...role, [flag]: !role[flag] } : role));
}

export const tokenFormMachine = setup({
  types: {
    context: {} as TokenFormContext,
    events: {} as TokenFormEvent,
    input: {} as TokenFormInput,
  },
  guards: {
    hasName: ({ context }) => hasTokenName(context.draft),
    isUserAdmin: ({ context }) => context.draft.userAdmin,
  },
  actions: {
    setName: assign({ draft: ({ context }, params: { name: string }) => ({ ...context.draft, name: params.name }) }),
    toggleRole: assign({
      draft: ({ context }, params: { collection: string; flag: RoleFlag }) => ({
        ...context.draft,
        roles: toggleRole(context.draft.roles, params.collection, params.flag),
      }),
    }),
    togglePower: assign({
      draft: ({ context }, params: { flag: PowerFlag }) => ({ ...context.draft, [params.flag]: !context.draft[params.flag] }),
    }),
    toggleUserAdmin: assign({
      draft: ({ context }) =>
        context.draft.userAdmin
          ? { ...context.draft, userAdmin: false, userGroupID: null }
          : { ...context.draft, userAdmin: true, userGroupID: USER_ADMIN_GROUP_ID },
    }),
    selectGroup: assign({ draft: ({ context }, params: { groupID: string | null }) => ({ ...context.draft, userGroupID: params.groupID }) }),
    reset: assign({ draft: ({ context }) => draftOf(context.original) }),
    load: assign((_, params: { token: Partial<TokenDraft> }) => ({ draft: draftOf(params.token), original: draftOf(params.token) })),
  },
}).createMachine({
  id: 'tokenForm',
  context: ({ input }) => {
    const original = draftOf(input.token ?? blankToken);
    return { draft: draftOf(original), original };
  },
  type: 'parallel',
  on: {
    SET_NAME: { actions: { type: 'setName', params: ({ event }) => ({ name: event.name }) } },
    TOGGLE_ROLE: { actions: { type: 'toggleRole', params: ({ event }) => ({ collection: event.collection, flag: event.flag }) } },
    TOGGLE_POWER: { actions: { type: 'togglePower', params: ({ event }) => ({ flag: event.flag }) } },
    TOGGLE_USER_ADMIN: { actions: 'toggleUserAdmin' },
    RESET: { actions: 'reset' },
    LOAD: { actions: { type: 'load', params: ({ event }) => ({ token: event.token }) } },
  },
  states: {
    name: {
      initial: 'blank',
      states: {
        blank: { always: { guard: 'hasName', target: 'named' } },
        named: { always: { guard: not('hasName'), target: 'blank' } },
      },
    },
    group: {
      initial: 'free',
      states: {
        free: {
          always: { guard: 'isUserAdmin', target: 'locked' },
          on: { SELECT_GROUP: { guard: not('isUserAdmin'), actions: { type: 'selectGroup', params: ({ event }) => ({ groupID: event.groupID }) } } },
        },
        locked: { always: { guard: not('isUserAdmin'), target: 'free' } },
      },
    },
  },
});

/** Generate (new token) and Save (saved token) are enabled only with a name. */
export const canSubmit = (snapshot: { matches: (value: { name: 'named' }) => boolean }) => snapshot.matches({ name: 'named' });
