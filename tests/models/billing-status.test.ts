/**
 * Model-based test of the billing-status machine. The model below says, for a console showing
 * organization A (whose charges can fail) or B (always paid up), what the status must be and which
 * dialog must be open, while the status windows load or fail, charges fail and are made good,
 * hours and days pass, the dialog is dismissed or its button pressed, and the page reloads. Every
 * shortest path is replayed against the real machine with a fake clock, a memory alert store and
 * a windows call the test answers by hand.
 * A second, small model holds that with billing switched off nothing ever leaves OK.
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { BillingStatus, StatusWindows } from '../../definitions/billing/status.ts';
import {
  billingStatusMachine,
  billingStatusView,
  type BillingAlertStore,
  type BillingOrganization,
  type BillingStatusEmitted,
} from '../../machines/billing-status.ts';
import { deferred, settle, type Deferred } from '../unit/support/deferred.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const START = Date.parse('2026-03-02T09:00:00Z');

/** The server's windows differ from the defaults: a failure 4 days old is GRACE here, NO_CLIENT by default. */
const serverWindows: StatusWindows = { GRACE: { from: 0, to: 5 }, NO_CLIENT: { from: 6, to: 14 }, BLOCK: { from: 15, to: 30 } };

/** Days since A's failed charge, in the steps the model takes: null (paid up), 0, 4, 20. */
type Age = null | 0 | 4 | 20;
type Org = 'A' | 'B';
type Windows = 'loading' | 'loaded' | 'failed';
type View = 'ok' | 'graceAlerting' | 'graceSnoozed' | 'restrictedAlerting' | 'restrictedUpdating';
const views: readonly View[] = ['ok', 'graceAlerting', 'graceSnoozed', 'restrictedAlerting', 'restrictedUpdating'];

interface ModelContext {
  org: Org;
  age: Age;
  windows: Windows;
  /** An hour (or more) has passed since A's dialog last showed or its button was last pressed. */
  alertDue: boolean;
  view: View;
  /** The last step pressed the dialog's button. */
  paymentRequested: boolean;
}

type ModelEventType =
  | 'WINDOWS_ANSWER'
  | 'WINDOWS_FAIL'
  | 'CHARGE_FAILS'
  | 'DAYS_PASS'
  | 'HOUR_PASSES'
  | 'CARD_UPDATED'
  | 'DISMISS'
  | 'UPDATE_PAYMENT'
  | 'OPEN_A'
  | 'OPEN_B'
  | 'RELOAD';
const eventTypes: readonly ModelEventType[] = [
  'WINDOWS_ANSWER',
  'WINDOWS_FAIL',
  'CHARGE_FAILS',
  'DAYS_PASS',
  'HOUR_PASSES',
  'CARD_UPDATED',
  'DISMISS',
  'UPDATE_PAYMENT',
  'OPEN_A',
  'OPEN_B',
  'RELOAD',
];

/** The status the rules give, written out per age rather than computed from the windows. */
function expectedStatus(context: Pick<ModelContext, 'org' | 'age' | 'windows'>): BillingStatus {
  if (context.org === 'B' || context.age === null) return 'OK';
  if (context.age === 0) return 'GRACE';
  if (context.age === 4) return context.windows === 'loaded' ? 'GRACE' : 'NO_CLIENT';
  return 'BLOCK';
}

const nextAge = (age: Age): Age => (age === 0 ? 4 : 20);

/** Whether an event can happen in a model state (the rest are filtered out). */
function canHappen(type: ModelEventType, context: ModelContext): boolean {
  switch (type) {
    case 'WINDOWS_ANSWER':
    case 'WINDOWS_FAIL':
      return context.windows === 'loading';
    case 'CHARGE_FAILS':
      return context.age === null;
    case 'DAYS_PASS':
      return context.age === 0 || context.age === 4;
    case 'CARD_UPDATED':
      return context.age !== null;
    case 'HOUR_PASSES':
      return !context.alertDue;
    case 'DISMISS':
      return context.view === 'graceAlerting';
    case 'UPDATE_PAYMENT':
      return context.view === 'graceAlerting' || context.view === 'restrictedAlerting';
    case 'OPEN_A':
      return context.org === 'B';
    case 'OPEN_B':
      return context.org === 'A';
    case 'RELOAD':
      return true;
  }
}

/**
 * The rules, one step at a time:
 * - the world changes first (windows, failure age, clock, organization shown);
 * - GRACE shows its dialog when an hour has passed since it last showed or was closed, and keeps
 *   it until dismissed;
 * - NO_CLIENT and BLOCK show the persistent dialog on entering (a reload or another organization
 *   starts afresh) and after the button, again once an hour has passed;
 * - OK shows nothing.
 */
function step(context: ModelContext, type: ModelEventType): ModelContext {
  const next: ModelContext = { ...context, paymentRequested: false };
  let fresh = false;
  switch (type) {
    case 'WINDOWS_ANSWER':
      next.windows = 'loaded';
      break;
    case 'WINDOWS_FAIL':
      next.windows = 'failed';
      break;
    case 'CHARGE_FAILS':
      next.age = 0;
      break;
    case 'DAYS_PASS':
      next.age = nextAge(context.age);
      next.alertDue = true;
      break;
    case 'HOUR_PASSES':
      next.alertDue = true;
      break;
    case 'CARD_UPDATED':
      next.age = null;
      break;
    case 'DISMISS':
      next.view = 'graceSnoozed';
      next.alertDue = false;
      return next;
    case 'UPDATE_PAYMENT':
      next.view = context.view === 'graceAlerting' ? 'graceSnoozed' : 'restrictedUpdating';
      next.alertDue = false;
      next.paymentRequested = true;
      return next;
    case 'OPEN_A':
      next.org = 'A';
      fresh = true;
      break;
    case 'OPEN_B':
      next.org = 'B';
      fresh = true;
      break;
    case 'RELOAD':
      next.windows = 'loading';
      fresh = true;
      break;
  }
  const status = expectedStatus(next);
  const from: View = fresh ? 'ok' : context.view;
  if (status === 'OK') next.view = 'ok';
  else if (status === 'GRACE') {
    if (from === 'graceAlerting') next.view = 'graceAlerting';
    else if (next.alertDue) {
      next.view = 'graceAlerting';
      next.alertDue = false;
    } else next.view = 'graceSnoozed';
  } else if (from === 'restrictedUpdating') next.view = next.alertDue ? 'restrictedAlerting' : 'restrictedUpdating';
  else next.view = 'restrictedAlerting';
  return next;
}

/** One model state per view; each event goes where `step` says. */
const model = setup({
  types: { context: {} as ModelContext, events: {} as { type: ModelEventType } },
}).createMachine({
  id: 'billingStatusModel',
  context: { org: 'A', age: null, windows: 'loading', alertDue: true, view: 'ok', paymentRequested: false },
  initial: 'ok',
  states: Object.fromEntries(
    views.map((view) => [
      view,
      {
        on: Object.fromEntries(
          eventTypes.map((type) => [
            type,
            views.map((target) => ({
              guard: ({ context }: { context: ModelContext }) => canHappen(type, context) && step(context, type).view === target,
              target,
              actions: assign(({ context }: { context: ModelContext }) => step(context, type)),
            })),
          ]),
        ),
      },
    ]),
  ),
});

/** The real machine over a fake clock, a memory alert store and a windows call answered by hand. */
function createHarness() {
  let now = START;
  let failedAt: number | null = null;
  let shown: Org = 'A';
  const store = new Map<string, number>();
  const alerts: BillingAlertStore = { read: (id) => store.get(id) ?? null, write: (id, at) => void store.set(id, at) };
  let windowsCall: Deferred<StatusWindows> | null = null;
  let windowsCalls = 0;
  let emitted: BillingStatusEmitted[] = [];
  let actor: Actor<typeof billingStatusMachine> | null = null;

  const machine = billingStatusMachine.provide({
    actors: {
      fetchWindows: fromPromise<StatusWindows>(() => {
        windowsCalls += 1;
        windowsCall = deferred<StatusWindows>();
        return windowsCall.promise;
      }),
    },
  });
  const organization = (): BillingOrganization =>
    shown === 'A' ? { id: 'A', initialBillingFailedDate: failedAt === null ? null : new Date(failedAt).toISOString() } : { id: 'B', initialBillingFailedDate: null };
  // The console sends the organization it shows whenever that organization's data is (re)read.
  const sendOrganization = () => actor?.send({ type: 'ORGANIZATION', organization: organization() });
  const start = () => {
    actor?.stop();
    windowsCalls = 0;
    actor = createActor(machine, { input: { enabled: true, now: () => now, alerts } });
    actor.on('PAYMENT_UPDATE_REQUESTED', (event) => void emitted.push(event));
    actor.start();
    sendOrganization();
  };
  const running = () => {
    if (!actor) throw new Error('not started');
    return actor;
  };
  const advance = (ms: number) => {
    now += ms;
    // The model's ages hold only while the hours passed since the failure stay under a day.
    if (failedAt !== null && ((now - failedAt) % DAY) / HOUR >= 23) throw new Error('the path crossed a day boundary by hours');
    running().send({ type: 'TICK' });
  };
  const stepOf = async (action: () => void) => {
    emitted = [];
    action();
    await settle();
  };

  start();
  return {
    store,
    get now() {
      return now;
    },
    get windowsCalls() {
      return windowsCalls;
    },
    get emitted() {
      return emitted;
    },
    view: () => billingStatusView(running().getSnapshot()),
    value: () => running().getSnapshot().value,
    events: {
      WINDOWS_ANSWER: () => stepOf(() => windowsCall?.resolve(serverWindows)),
      WINDOWS_FAIL: () => stepOf(() => windowsCall?.reject(new TypeError('Failed to fetch'))),
      CHARGE_FAILS: () =>
        stepOf(() => {
          failedAt = now;
          if (shown === 'A') sendOrganization();
        }),
      DAYS_PASS: () =>
        stepOf(() => {
          const age = failedAt === null ? 0 : Math.floor((now - failedAt) / DAY);
          advance(((age === 0 ? 4 : 20) - age) * DAY);
        }),
      HOUR_PASSES: () => stepOf(() => advance(HOUR)),
      CARD_UPDATED: () =>
        stepOf(() => {
          failedAt = null;
          if (shown === 'A') sendOrganization();
        }),
      DISMISS: () => stepOf(() => running().send({ type: 'DISMISS' })),
      UPDATE_PAYMENT: () => stepOf(() => running().send({ type: 'UPDATE_PAYMENT' })),
      OPEN_A: () =>
        stepOf(() => {
          shown = 'A';
          sendOrganization();
        }),
      OPEN_B: () =>
        stepOf(() => {
          shown = 'B';
          sendOrganization();
        }),
      RELOAD: () => stepOf(start),
    } satisfies Record<ModelEventType, () => Promise<void>>,
  };
}

type Harness = ReturnType<typeof createHarness>;

const dialogOf: Record<View, 'none' | 'grace' | 'restricted'> = {
  ok: 'none',
  graceAlerting: 'grace',
  graceSnoozed: 'none',
  restrictedAlerting: 'restricted',
  restrictedUpdating: 'none',
};

function expectState(harness: Harness, context: ModelContext) {
  expect(harness.view()).toEqual({ status: expectedStatus(context), dialog: dialogOf[context.view] });
  // The windows are asked for once per start, never again.
  expect(harness.windowsCalls).toBe(1);
  if (context.paymentRequested) {
    expect(harness.emitted).toEqual([{ type: 'PAYMENT_UPDATE_REQUESTED', organizationID: 'A', status: expectedStatus(context) }]);
  } else expect(harness.emitted).toEqual([]);
  // The dialog that shows now is remembered for A, so a reload within the hour does not repeat it.
  if (context.view === 'graceAlerting') expect(harness.store.get('A')).toBeLessThanOrEqual(harness.now);
  if (context.org === 'B') expect(harness.store.has('B')).toBe(false);
}

describe('billing status model', () => {
  const testModel = createTestModel(model, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('covers every view, status and window outcome', () => {
    const states = paths.flatMap((path) => path.steps.map((step) => step.state));
    const reached = new Set(states.map((state) => String(state.value)));
    expect([...reached].sort()).toEqual([...views].sort());
    const statuses = new Set(states.map((state) => expectedStatus(state.context)));
    expect([...statuses].sort()).toEqual(['BLOCK', 'GRACE', 'NO_CLIENT', 'OK']);
    const windows = new Set(states.map((state) => state.context.windows));
    expect([...windows].sort()).toEqual(['failed', 'loaded', 'loading']);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const harness = createHarness();
      await settle();
      const check = (state: { context: ModelContext }) => expectState(harness, state.context);
      await path.test({
        events: harness.events,
        states: Object.fromEntries(views.map((view) => [view, check])),
      });
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Billing switched off

const offModel = setup({
  types: { context: {} as { age: Age }, events: {} as { type: 'CHARGE_FAILS' } | { type: 'DAYS_PASS' } | { type: 'UPDATE_PAYMENT' } | { type: 'DISMISS' } },
  guards: { paidUp: ({ context }) => context.age === null, ageing: ({ context }) => context.age === 0 || context.age === 4 },
}).createMachine({
  id: 'billingOffModel',
  context: { age: null },
  initial: 'off',
  states: {
    off: {
      on: {
        CHARGE_FAILS: { guard: 'paidUp', target: 'off', actions: assign({ age: 0 }) },
        DAYS_PASS: { guard: 'ageing', target: 'off', actions: assign({ age: ({ context }) => nextAge(context.age) }) },
        UPDATE_PAYMENT: { target: 'off' },
        DISMISS: { target: 'off' },
      },
    },
  },
});

describe('billing status model with billing switched off', () => {
  const paths = createTestModel(offModel, { filterEvents: (snapshot, event) => snapshot.can(event) }).getShortestPaths();

  it('reaches every age of a failure', () => {
    expect(new Set(paths.flatMap((path) => path.steps.map((step) => step.state.context.age))).size).toBe(4);
  });

  for (const path of paths) {
    it(path.description, async () => {
      let now = START;
      let failedAt: number | null = null;
      let windowsCalls = 0;
      const emitted: unknown[] = [];
      const actor = createActor(
        billingStatusMachine.provide({
          actors: {
            fetchWindows: fromPromise<StatusWindows>(async () => {
              windowsCalls += 1;
              return serverWindows;
            }),
          },
        }),
        { input: { enabled: false, now: () => now, alerts: { read: () => null, write: () => undefined } } },
      );
      actor.on('PAYMENT_UPDATE_REQUESTED', (event) => void emitted.push(event));
      actor.start();
      const organization = () => ({ id: 'A', initialBillingFailedDate: failedAt === null ? null : new Date(failedAt).toISOString() });
      actor.send({ type: 'ORGANIZATION', organization: organization() });
      await path.test({
        events: {
          CHARGE_FAILS: async () => {
            failedAt = now;
            actor.send({ type: 'ORGANIZATION', organization: organization() });
          },
          DAYS_PASS: async () => {
            now += 8 * DAY;
            actor.send({ type: 'TICK' });
          },
          UPDATE_PAYMENT: async () => void actor.send({ type: 'UPDATE_PAYMENT' }),
          DISMISS: async () => void actor.send({ type: 'DISMISS' }),
        },
        states: {
          off: async () => {
            await settle();
            expect(actor.getSnapshot().value).toBe('off');
            expect(billingStatusView(actor.getSnapshot())).toEqual({ status: 'OK', dialog: 'none' });
            expect(windowsCalls).toBe(0);
            expect(emitted).toEqual([]);
          },
        },
      });
      actor.stop();
    });
  }
});
