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
} as const;

const Language = Type.Union([Type.Literal('js'), Type.Literal('ts')]);

export const FunctionView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  language: Language,
  public: Type.Boolean(),
  apiTokenID: Nullable(Type.String()),
  deployedVersionID: Nullable(Type.String()),
  deployedVersion: Nullable(Type.Integer()),
  latestVersion: Nullable(Type.Integer()),
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
  },
  { additionalProperties: false },
);
export type FunctionInput = Static<typeof FunctionInput>;

export const FunctionUpdate = Type.Object(
  {
    language: Type.Optional(Language),
    public: Type.Optional(Type.Boolean()),
    apiTokenID: Type.Optional(Nullable(Type.String({ pattern: '^[0-9a-f]{24}$' }))),
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
  trigger: Type.Union([Type.Literal('http'), Type.Literal('test')]),
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
