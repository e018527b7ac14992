/**
 * The wire shapes of a project's Functions (`/api/organization/{org}/project/{proj}/functions/…`;
 * docs/functions.md), shared by the server (validation, OpenAPI) and the console (static types).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './wire.ts';

const IsoDate = Type.String({ description: 'ISO 8601' });

/** Limits of functions (docs/functions.md "Functions and versions"). */
export const functionLimits = {
  /** A function's name: the last segment of its HTTP address. */
  namePattern: '^[a-z0-9][a-z0-9-]{0,62}$',
  /** A secret's name: `ctx.secrets.NAME`. */
  secretNamePattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$',
  sourceBytesMax: 256 * 1024,
  secretBytesMax: 8 * 1024,
  secretsPerProject: 50,
  perProject: 100,
  invocationsPerPage: 50,
  /** The start of a result kept in the log. */
  resultPreviewBytes: 2048,
  /** An HTTP trigger's request body, at most. */
  httpBodyBytes: 1024 * 1024,
  /** Collections (and nested levels) an event trigger listens to, at most. */
  collectionsMax: 50,
} as const;

const Language = Type.Union([Type.Literal('js'), Type.Literal('ts')]);
/** The item events a function may run after (docs/functions.md "Event and schedule triggers"). */
const ItemEvent = Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('delete')]);
/** A collection's id or slug, or `slug.nested` for a nested level; none: every collection. */
const TriggerCollections = Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: functionLimits.collectionsMax });
/** A cron expression (5 or 6 fields, UTC), at most every 5 minutes; null: no schedule. */
const Schedule = Nullable(Type.String({ maxLength: 100 }));

export const FunctionView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  language: Language,
  public: Type.Boolean(),
  apiTokenID: Nullable(Type.String()),
  deployedVersionID: Nullable(Type.String()),
  deployedVersion: Nullable(Type.Integer()),
  latestVersion: Nullable(Type.Integer()),
  /** Item events it runs after ([]: none), on these collections ([]: every one). */
  events: Type.Array(ItemEvent),
  collections: Type.Array(Type.String()),
  schedule: Nullable(Type.String()),
  nextRunDate: Nullable(IsoDate),
  createdDate: IsoDate,
  updatedDate: IsoDate,
});
export type FunctionView = Static<typeof FunctionView>;

export const FunctionInput = Type.Object(
  {
    name: Type.String({ pattern: functionLimits.namePattern }),
    language: Type.Optional(Language),
    public: Type.Optional(Type.Boolean()),
    apiTokenID: Type.Optional(Nullable(Type.String({ pattern: '^[0-9a-f]{24}$' }))),
    events: Type.Optional(Type.Array(ItemEvent, { maxItems: 3 })),
    collections: Type.Optional(TriggerCollections),
    schedule: Type.Optional(Schedule),
  },
  { additionalProperties: false },
);
export type FunctionInput = Static<typeof FunctionInput>;

export const FunctionUpdate = Type.Object(
  {
    language: Type.Optional(Language),
    public: Type.Optional(Type.Boolean()),
    apiTokenID: Type.Optional(Nullable(Type.String({ pattern: '^[0-9a-f]{24}$' }))),
    events: Type.Optional(Type.Array(ItemEvent, { maxItems: 3 })),
    collections: Type.Optional(TriggerCollections),
    schedule: Type.Optional(Schedule),
  },
  { additionalProperties: false },
);
export type FunctionUpdate = Static<typeof FunctionUpdate>;

export const FunctionSourceInput = Type.Object({ source: Type.String({ maxLength: functionLimits.sourceBytesMax }) }, { additionalProperties: false });

export const FunctionVersionView = Type.Object({
  id: Type.String(),
  number: Type.Integer(),
  deployed: Type.Boolean(),
  source: Type.String(),
  createdDate: IsoDate,
});
export type FunctionVersionView = Static<typeof FunctionVersionView>;

const InvocationError = Type.Object({ name: Type.String(), message: Type.String(), stack: Type.Optional(Type.String()) });
const LogLine = Type.Object({ level: Type.String(), text: Type.String() });

export const FunctionInvocationView = Type.Object({
  id: Type.String(),
  versionID: Nullable(Type.String()),
  trigger: Type.Union([Type.Literal('http'), Type.Literal('test'), Type.Literal('event'), Type.Literal('schedule')]),
  /** An event's or schedule's run this was an attempt of (retried: attempt 2, 3…); null for http and test. */
  runID: Nullable(Type.String()),
  attempt: Nullable(Type.Integer()),
  status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  durationMs: Type.Integer(),
  memoryBytes: Type.Integer(),
  error: Nullable(InvocationError),
  logs: Type.Array(LogLine),
  resultPreview: Nullable(Type.String()),
  createdDate: IsoDate,
});
export type FunctionInvocationView = Static<typeof FunctionInvocationView>;

export const FunctionInvocationPage = Type.Object({ invocations: Type.Array(FunctionInvocationView), page: Type.Integer(), hasMore: Type.Boolean() });
export type FunctionInvocationPage = Static<typeof FunctionInvocationPage>;

export const FunctionTestResult = Type.Object({ invocation: FunctionInvocationView, result: Type.Unknown() });

export const FunctionSecretInput = Type.Object(
  { name: Type.String({ pattern: functionLimits.secretNamePattern }), value: Type.String({ minLength: 1, maxLength: functionLimits.secretBytesMax }) },
  { additionalProperties: false },
);
