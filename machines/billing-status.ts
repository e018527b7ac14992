/**
 * The billing status of the organization the console shows, and its "Billing Account Status"
 * dialog (docs/console.md "Billing status in the console"):
 * - the status windows are fetched once at start; until they arrive, and if the call fails, the
 *   defaults of definitions/billing/status.ts stand;
 * - the status is `billingStatusOf(initialBillingFailedDate, now, windows)`, re-read whenever the
 *   organization's data changes (ORGANIZATION) and on each clock tick (TICK);
 * - GRACE: a dialog that can be dismissed, shown at most once per `throttles.graceAlertMs` per
 *   organization, counted from when it showed or was closed (the time is kept by the `alerts`
 *   store, so a reload does not show it again);
 * - NO_CLIENT and BLOCK (`restricted`): a persistent dialog whose only way out is its button; it
 *   shows again on the next start, or once the throttle has passed since the button was pressed;
 * - OK: no dialog. With billing switched off the machine stays in `off` and never leaves OK.
 * The button (UPDATE_PAYMENT) emits PAYMENT_UPDATE_REQUESTED; the console goes to organization
 * settings with it. The clock and the alert store come in as input, the windows call is an actor
 * the console provides, so tests control all three.
 */
import { assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { billingStatusOf, defaultStatusWindows, type BillingStatus, type StatusWindows } from '../definitions/billing/status.ts';
import { throttles } from '../definitions/constants.ts';

/** What the machine reads of an organization. */
export interface BillingOrganization {
  id: string;
  /** The first failed charge not yet made good (ISO date-time), or null. */
  initialBillingFailedDate: string | null;
}

/** Where the time the dialog last showed is kept, per organization (local storage in the console). */
export interface BillingAlertStore {
  read(organizationID: string): number | null;
  write(organizationID: string, at: number): void;
}

export interface BillingStatusInput {
  /** False when the server runs without billing (`/api/config` `billing: false`). */
  enabled: boolean;
  /** The clock, in milliseconds since the epoch. */
  now: () => number;
  alerts: BillingAlertStore;
}

export interface BillingStatusContext {
  enabled: boolean;
  now: () => number;
  alerts: BillingAlertStore;
  windows: StatusWindows;
  organization: BillingOrganization | null;
  /** The clock at the last event: every decision of one step reads the same time. */
  at: number;
  /** When the dialog last showed (or its button was last pressed) for this organization. */
  lastAlertAt: number | null;
}

export type BillingStatusEvent =
  | { type: 'ORGANIZATION'; organization: BillingOrganization | null }
  | { type: 'TICK' }
  | { type: 'DISMISS' }
  | { type: 'UPDATE_PAYMENT' };

export type BillingStatusEmitted = { type: 'PAYMENT_UPDATE_REQUESTED'; organizationID: string; status: BillingStatus };

/** The status the context stands for: OK without an organization or with billing off. */
export function currentBillingStatus(context: BillingStatusContext): BillingStatus {
  if (!context.enabled || !context.organization) return 'OK';
  return billingStatusOf(context.organization.initialBillingFailedDate, context.at, context.windows);
}

const alertDue = (context: BillingStatusContext) => context.lastAlertAt === null || context.at - context.lastAlertAt >= throttles.graceAlertMs;

export const billingStatusMachine = setup({
  types: {
    context: {} as BillingStatusContext,
    events: {} as BillingStatusEvent,
    input: {} as BillingStatusInput,
    emitted: {} as BillingStatusEmitted,
  },
  actors: {
    // Provided by the console: GET billing/getBillingStatuses.
    fetchWindows: fromPromise<StatusWindows>(async () => {
      throw new Error('fetchWindows is not provided');
    }),
  },
  guards: {
    isEnabled: ({ context }) => context.enabled,
    isOk: ({ context }) => currentBillingStatus(context) === 'OK',
    isGrace: ({ context }) => currentBillingStatus(context) === 'GRACE',
    isRestricted: ({ context }) => {
      const status = currentBillingStatus(context);
      return status === 'NO_CLIENT' || status === 'BLOCK';
    },
    isAlertDue: ({ context }) => alertDue(context),
    isOtherOrganization: ({ context }, params: { organization: BillingOrganization | null }) =>
      (context.organization?.id ?? null) !== (params.organization?.id ?? null),
  },
  actions: {
    readClock: assign({ at: ({ context }) => context.now() }),
    rememberWindows: assign({ windows: (_, params: { windows: StatusWindows }) => params.windows }),
    setOrganization: assign({ organization: (_, params: { organization: BillingOrganization | null }) => params.organization }),
    loadLastAlert: assign({
      lastAlertAt: ({ context }) => (context.organization ? context.alerts.read(context.organization.id) : null),
    }),
    rememberAlert: assign({
      lastAlertAt: ({ context }) => {
        if (context.organization) context.alerts.write(context.organization.id, context.at);
        return context.at;
      },
    }),
    requestPaymentUpdate: emit(({ context }) => ({
      type: 'PAYMENT_UPDATE_REQUESTED' as const,
      organizationID: context.organization?.id ?? '',
      status: currentBillingStatus(context),
    })),
  },
}).createMachine({
  id: 'billingStatus',
  context: ({ input }) => ({
    enabled: input.enabled,
    now: input.now,
    alerts: input.alerts,
    windows: defaultStatusWindows,
    organization: null,
    at: input.now(),
    lastAlertAt: null,
  }),
  initial: 'starting',
  states: {
    starting: { always: [{ guard: 'isEnabled', target: 'on' }, { target: 'off' }] },
    /** Billing is switched off: always OK, every event ignored. */
    off: {},
    on: {
      type: 'parallel',
      on: { TICK: { actions: 'readClock' } },
      states: {
        windows: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                src: 'fetchWindows',
                onDone: { target: 'loaded', actions: { type: 'rememberWindows', params: ({ event }) => ({ windows: event.output }) } },
                onError: { target: 'defaults' },
              },
            },
            loaded: {},
            /** The call failed: the defaults stand for this session. */
            defaults: {},
          },
        },
        status: {
          initial: 'ok',
          on: {
            ORGANIZATION: [
              {
                // Another organization: its own last alert, and the decision starts afresh.
                guard: { type: 'isOtherOrganization', params: ({ event }) => ({ organization: event.organization }) },
                // A child target: re-entering `status` itself would restart the windows region too.
                target: '.ok',
                actions: [{ type: 'setOrganization', params: ({ event }) => ({ organization: event.organization }) }, 'readClock', 'loadLastAlert'],
              },
              { actions: [{ type: 'setOrganization', params: ({ event }) => ({ organization: event.organization }) }, 'readClock'] },
            ],
          },
          states: {
            ok: {
              always: [
                { guard: 'isGrace', target: 'grace' },
                { guard: 'isRestricted', target: 'restricted' },
              ],
            },
            grace: {
              always: [
                { guard: 'isOk', target: 'ok' },
                { guard: 'isRestricted', target: 'restricted' },
              ],
              initial: 'deciding',
              states: {
                deciding: { always: [{ guard: 'isAlertDue', target: 'alerting' }, { target: 'snoozed' }] },
                /** The dialog is open and can be dismissed. */
                alerting: {
                  entry: 'rememberAlert',
                  on: {
                    // Closing counts as the last alert: a dialog left open for hours does not return at once.
                    DISMISS: { target: 'snoozed', actions: 'rememberAlert' },
                    UPDATE_PAYMENT: { target: 'snoozed', actions: ['rememberAlert', 'requestPaymentUpdate'] },
                  },
                },
                snoozed: { always: { guard: 'isAlertDue', target: 'alerting' } },
              },
            },
            restricted: {
              always: [
                { guard: 'isOk', target: 'ok' },
                { guard: 'isGrace', target: 'grace' },
              ],
              initial: 'alerting',
              states: {
                /** The persistent dialog: only its button closes it. */
                alerting: { on: { UPDATE_PAYMENT: { target: 'updating', actions: ['rememberAlert', 'requestPaymentUpdate'] } } },
                /** The user went to settings to pay; the dialog returns after the throttle. */
                updating: { always: { guard: 'isAlertDue', target: 'alerting' } },
              },
            },
          },
        },
      },
    },
  },
});

export type BillingStatusSnapshot = SnapshotFrom<typeof billingStatusMachine>;

/** What the console draws from a snapshot. */
export interface BillingStatusView {
  status: BillingStatus;
  /** The dialog: none, the dismissable GRACE one, or the persistent one. */
  dialog: 'none' | 'grace' | 'restricted';
}

export function billingStatusView(snapshot: BillingStatusSnapshot): BillingStatusView {
  const status = currentBillingStatus(snapshot.context);
  if (snapshot.matches({ on: { status: { grace: 'alerting' } } })) return { status, dialog: 'grace' };
  if (snapshot.matches({ on: { status: { restricted: 'alerting' } } })) return { status, dialog: 'restricted' };
  return { status, dialog: 'none' };
}
