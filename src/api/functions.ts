/**
 * Typed calls of a project's Functions (docs/functions.md "Functions and versions"): functions
 * (list, read, make, change, delete), source versions, deploy, test runs, the invocation log and
 * the project's secrets (names only). Shapes from definitions/schemas/functions.ts. All reject
 * with ApiError.
 */
import type { FunctionInput, FunctionInvocationPage, FunctionInvocationView, FunctionUpdate, FunctionVersionView, FunctionView } from '../../definitions/schemas/functions.ts';
import { getApiClient, type ApiClient } from './client.ts';

export type { FunctionInput, FunctionInvocationPage, FunctionInvocationView, FunctionUpdate, FunctionVersionView, FunctionView };

/** The project a call is made in. */
export interface FunctionScope {
  organizationID: string;
  projectID: string;
}

/** A secret as listed: its name only (values are never answered). */
export interface FunctionSecret {
  name: string;
  updatedDate: string;
}

/** A test run's answer: its log entry and the function's result (null when it failed). */
export interface FunctionTestResult {
  invocation: FunctionInvocationView;
  result: unknown;
}

export interface FunctionsApi {
  list(scope: FunctionScope): Promise<FunctionView[]>;
  get(scope: FunctionScope, name: string): Promise<FunctionView>;
  create(scope: FunctionScope, input: FunctionInput): Promise<FunctionView>;
  update(scope: FunctionScope, name: string, input: FunctionUpdate): Promise<FunctionView>;
  remove(scope: FunctionScope, name: string): Promise<void>;
  /** Saves the source as a new version (compiled first; 400 function_compile_failed saves nothing). */
  saveSource(scope: FunctionScope, name: string, source: string): Promise<FunctionVersionView>;
  versions(scope: FunctionScope, name: string): Promise<FunctionVersionView[]>;
  deploy(scope: FunctionScope, name: string, versionID: string): Promise<FunctionView>;
  test(scope: FunctionScope, name: string, event: unknown): Promise<FunctionTestResult>;
  invocations(scope: FunctionScope, name: string, page: number, search: string): Promise<FunctionInvocationPage>;
  secrets(scope: FunctionScope): Promise<FunctionSecret[]>;
  putSecret(scope: FunctionScope, name: string, value: string): Promise<void>;
  deleteSecret(scope: FunctionScope, name: string): Promise<void>;
}

const seg = encodeURIComponent;
const base = (scope: FunctionScope) => `api/organization/${seg(scope.organizationID)}/project/${seg(scope.projectID)}/functions`;

/** Every path of these calls (relative to the console's origin). */
export const functionPaths = {
  list: base,
  one: (scope: FunctionScope, name: string) => `${base(scope)}/${seg(name)}`,
  source: (scope: FunctionScope, name: string) => `${base(scope)}/${seg(name)}/source`,
  versions: (scope: FunctionScope, name: string) => `${base(scope)}/${seg(name)}/versions`,
  deploy: (scope: FunctionScope, name: string) => `${base(scope)}/${seg(name)}/deploy`,
  test: (scope: FunctionScope, name: string) => `${base(scope)}/${seg(name)}/test`,
  invocations: (scope: FunctionScope, name: string) => `${base(scope)}/${seg(name)}/invocations`,
  secrets: (scope: FunctionScope) => `${base(scope)}/secrets`,
  secret: (scope: FunctionScope, name: string) => `${base(scope)}/secrets/${seg(name)}`,
};

/** The HTTP trigger's address of a function (docs/functions.md "The HTTP trigger"). */
export function functionAddress(origin: string, projectID: string, name: string): string {
  return `${origin}/functions/v1/${seg(projectID)}/${seg(name)}`;
}

export function createFunctionsApi(client: ApiClient): FunctionsApi {
  const { json } = client;
  const none = async (path: string, options: Parameters<ApiClient['json']>[1]) => {
    await json<unknown>(path, options);
  };
  return {
    list: (scope) => json<FunctionView[]>(functionPaths.list(scope)),
    get: (scope, name) => json<FunctionView>(functionPaths.one(scope, name)),
    create: (scope, input) => json<FunctionView>(functionPaths.list(scope), { method: 'post', json: input }),
    update: (scope, name, input) => json<FunctionView>(functionPaths.one(scope, name), { method: 'put', json: input }),
    remove: (scope, name) => none(functionPaths.one(scope, name), { method: 'delete' }),
    saveSource: (scope, name, source) => json<FunctionVersionView>(functionPaths.source(scope, name), { method: 'put', json: { source } }),
    versions: (scope, name) => json<FunctionVersionView[]>(functionPaths.versions(scope, name)),
    deploy: (scope, name, versionID) => json<FunctionView>(functionPaths.deploy(scope, name), { method: 'post', json: { versionID } }),
    test: (scope, name, event) => json<FunctionTestResult>(functionPaths.test(scope, name), { method: 'post', json: { event } }),
    invocations: (scope, name, page, search) =>
      json<FunctionInvocationPage>(functionPaths.invocations(scope, name), { searchParams: search ? { page, search } : { page } }),
    secrets: (scope) => json<FunctionSecret[]>(functionPaths.secrets(scope)),
    putSecret: (scope, name, value) => none(functionPaths.secrets(scope), { method: 'put', json: { name, value } }),
    deleteSecret: (scope, name) => none(functionPaths.secret(scope, name), { method: 'delete' }),
  };
}

let browserFunctionsApi: FunctionsApi | null = null;

/** These calls over the page's client. */
export function getFunctionsApi(): FunctionsApi {
  browserFunctionsApi ??= createFunctionsApi(getApiClient());
  return browserFunctionsApi;
}
