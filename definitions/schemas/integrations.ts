/**
 * The wire shapes of a project's Integrations (`/api/organization/{org}/project/{proj}/integrations/…`;
 * docs/integrations.md), shared by the server (validation, OpenAPI) and the console (static types).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './wire.ts';

const IsoDate = Type.String({ description: 'ISO 8601' });

/** Limits of an instance (docs/integrations.md "Instances"). */
export const integrationLimits = {
  nameMax: 100,
  collectionsMax: 50,
  perProject: 20,
  runsPerPage: 50,
} as const;

const ItemEvent = Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('delete')]);

/** An instance as answered: the settings that are not secrets, and which secrets are stored. */
export const IntegrationInstance = Type.Object({
  id: Type.String(),
  integration: Type.String(),
  name: Type.String(),
  enabled: Type.Boolean(),
  collections: Type.Array(Type.String()),
  events: Type.Array(ItemEvent),
  schedule: Nullable(Type.String()),
  nextRunDate: Nullable(IsoDate),
  settings: Type.Record(Type.String(), Type.Unknown()),
  /** Each secret setting of the integration: whether a value is stored (values are never answered). */
  secretsSet: Type.Record(Type.String(), Type.Boolean()),
  lastRunDate: Nullable(IsoDate),
  lastStatus: Nullable(Type.String()),
  lastError: Nullable(Type.String()),
  createdDate: IsoDate,
  updatedDate: IsoDate,
});
export type IntegrationInstance = Static<typeof IntegrationInstance>;

/**
 * `POST integrations` (all of it) and `PUT integrations/{id}` (any part; `integration` cannot
 * change). A secret left out of `settings` keeps its stored value; `null` removes it.
 */
export const IntegrationInstanceInput = Type.Object(
  {
    integration: Type.String({ minLength: 1, maxLength: 64 }),
    name: Type.String({ minLength: 1, maxLength: integrationLimits.nameMax }),
    enabled: Type.Optional(Type.Boolean()),
    collections: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: integrationLimits.collectionsMax })),
    events: Type.Optional(Type.Array(ItemEvent, { maxItems: 3 })),
    schedule: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    settings: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);
export type IntegrationInstanceInput = Static<typeof IntegrationInstanceInput>;

export const IntegrationInstanceUpdate = Type.Partial(Type.Omit(IntegrationInstanceInput, ['integration']), { additionalProperties: false });
export type IntegrationInstanceUpdate = Static<typeof IntegrationInstanceUpdate>;

/** One run of an instance, newest first in the log. */
export const IntegrationRun = Type.Object({
  id: Type.String(),
  trigger: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  detail: Type.Record(Type.String(), Type.Unknown()),
  error: Nullable(Type.String()),
  durationMs: Nullable(Type.Integer()),
  createdDate: IsoDate,
  finishedDate: Nullable(IsoDate),
});
export type IntegrationRun = Static<typeof IntegrationRun>;

export const IntegrationRunPage = Type.Object({ runs: Type.Array(IntegrationRun), total: Type.Integer(), page: Type.Integer(), perPage: Type.Integer() });
export type IntegrationRunPage = Static<typeof IntegrationRunPage>;
