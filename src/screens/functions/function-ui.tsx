/** Small pieces the Functions screens share: a function's versions, what runs it, a run's status. */
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { FunctionView } from '../../api/functions.ts';

/** An item event's name in a sentence ("create, update in posts"). */
const eventWords: Readonly<Record<FunctionView['events'][number], MessageKey>> = {
  create: 'functions.event.create',
  update: 'functions.event.update',
  delete: 'functions.event.delete',
};

/** An item event as a checkbox names it. */
export const eventLabels: Readonly<Record<FunctionView['events'][number], MessageKey>> = {
  create: 'functions.triggers.event.create',
  update: 'functions.triggers.event.update',
  delete: 'functions.triggers.event.delete',
};

/** A run's trigger in the log. */
export const triggerLabels: Readonly<Record<'http' | 'test' | 'event' | 'schedule', MessageKey>> = {
  http: 'functions.log.trigger.http',
  test: 'functions.log.trigger.test',
  event: 'functions.log.trigger.event',
  schedule: 'functions.log.trigger.schedule',
};

/** "v2 deployed · v3 saved", or that nothing is deployed (yet). */
export function VersionSummary({ fn }: { fn: Pick<FunctionView, 'deployedVersion' | 'latestVersion'> }) {
  const format = useFormat();
  if (fn.latestVersion === null) return <span className="muted">{format('functions.version.none')}</span>;
  return (
    <span className="function-versions">
      {fn.deployedVersion === null ? (
        <span className="badge function-undeployed">{format('functions.version.notDeployed')}</span>
      ) : (
        <span className="badge badge-active">{format('functions.version.deployed', { number: fn.deployedVersion })}</span>
      )}
      {fn.latestVersion !== fn.deployedVersion ? <span className="muted">{format('functions.version.latest', { number: fn.latestVersion })}</span> : null}
    </span>
  );
}

/** What runs a function: its HTTP address (public or with a token), its item events and lists, its schedule. */
export function TriggerSummary({ fn, address }: { fn: Pick<FunctionView, 'public' | 'events' | 'collections' | 'schedule' | 'nextRunDate'>; address: string }) {
  const format = useFormat();
  return (
    <ul className="function-triggers">
      <li>
        <span className="function-trigger-name">{format('functions.trigger.http')}</span> <code className="function-address">{address}</code>{' '}
        <span className="muted">{format(fn.public ? 'functions.trigger.public' : 'functions.trigger.private')}</span>
      </li>
      {fn.events.length ? (
        <li>
          <span className="function-trigger-name">{format('functions.trigger.events')}</span>{' '}
          {format('functions.trigger.eventsOn', {
            events: fn.events.map((event) => format(eventWords[event])).join(', '),
            lists: fn.collections.length ? fn.collections.join(', ') : format('functions.trigger.everyList'),
          })}
        </li>
      ) : null}
      {fn.schedule ? (
        <li>
          <span className="function-trigger-name">{format('functions.trigger.schedule')}</span> <code>{fn.schedule}</code>
          {fn.nextRunDate ? <span className="muted"> {format('functions.trigger.nextRun', { date: formatDateTime(fn.nextRunDate) })}</span> : null}
        </li>
      ) : null}
    </ul>
  );
}

/** A run's outcome as a badge. */
export function RunStatus({ status }: { status: 'ok' | 'error' }) {
  const format = useFormat();
  return <span className={`badge function-status function-status-${status}`}>{format(status === 'ok' ? 'functions.status.ok' : 'functions.status.error')}</span>;
}
