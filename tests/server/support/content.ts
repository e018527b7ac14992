/** What the content suites share: a signed-in owner with an organization and a project, and calls under it. */
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import type { TestApp } from './test-app.ts';
import { json } from './test-app.ts';
import { bearer, verifiedUser } from './flows.ts';
import { expectProblem } from './assertions.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ContentFixture {
  org: string;
  project: string;
  access: string;
  /** A call under `/api/organization/{org}/project/{project}/` as the owner (or with `access`). */
  call(method: Method, path: string, payload?: unknown, options?: { access?: string; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  /** A new project of the same organization, with calls under it. */
  otherProject(): Promise<ContentFixture>;
}

async function projectFixture(t: TestApp, org: string, access: string): Promise<ContentFixture> {
  const created = await t.app.inject({ method: 'POST', url: `/api/organization/${org}/project`, headers: bearer(access), payload: { name: 'Content' } });
  expect(created.statusCode, created.body).toBe(201);
  const project = json(created).id as string;
  const base = `/api/organization/${org}/project/${project}/`;
  return {
    org,
    project,
    access,
    call: (method, path, payload, options = {}) =>
      t.app.inject({
        method,
        url: base + path,
        headers: { ...bearer(options.access ?? access), ...(options.headers ?? {}) },
        ...(payload === undefined ? {} : { payload: payload as object }),
      }),
    otherProject: () => projectFixture(t, org, access),
  };
}

/** Signs up an owner, who creates an organization and a project. */
export async function contentFixture(t: TestApp): Promise<ContentFixture> {
  const { tokens } = await verifiedUser(t.app, 'editor');
  const org = json(await t.app.inject({ method: 'POST', url: '/api/organization', headers: bearer(tokens.access_token), payload: { name: 'Content Org' } })).id as string;
  return projectFixture(t, org, tokens.access_token);
}

/** Creates a collection (asserting 201) and returns its view. */
export async function createCollection(f: ContentFixture, body: Record<string, unknown>) {
  const response = await f.call('POST', 'collection', body);
  expect(response.statusCode, response.body).toBe(201);
  return json(response);
}

/** Adds a field (asserting 201) and returns it. */
export async function addField(f: ContentFixture, collection: string, field: Record<string, unknown>, nestedID?: string) {
  const response = await f.call('POST', `collection/${collection}/field${nestedID ? `?nestedID=${nestedID}` : ''}`, field);
  expect(response.statusCode, response.body).toBe(201);
  return json(response);
}

/** Creates an item (asserting 201) and returns it. */
export async function createItem(f: ContentFixture, collection: string, values: Record<string, unknown>, nested?: { item: string; nestedID: string }) {
  const path = nested ? `collection/${collection}/item/${nested.item}?nestedID=${nested.nestedID}` : `collection/${collection}/item`;
  const response = await f.call('POST', path, values);
  expect(response.statusCode, response.body).toBe(201);
  return json(response);
}

/** Asserts a 400 problem naming exactly these paths (in any order) and returns its errors. */
export function expectInvalid(response: LightMyRequestResponse, paths: string[]) {
  const body = expectProblem(response, 400) as unknown as { errors?: { path: string; message: string }[] };
  expect(body.errors, response.body).toBeDefined();
  expect(body.errors!.map((e) => e.path).sort(), response.body).toEqual([...paths].sort());
  return body.errors!;
}

/** The names of every table of the database that holds items. */
export async function contentTables(t: TestApp): Promise<string[]> {
  const result = (await t.database.db.execute(
    sql`select tablename from pg_tables where schemaname = 'public' and tablename like 'content\\_%' and tablename <> 'content_collections' order by 1`,
  )) as unknown as { rows: { tablename: string }[] };
  return result.rows.map((r) => r.tablename);
}
