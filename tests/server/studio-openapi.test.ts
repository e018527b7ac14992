/**
 * The generated OpenAPI document (docs/studio.md "The generated document"): for a project with
 * every field type and two nested levels it is valid OpenAPI 3.1; the API's own answers match its
 * item schemas; a token sees only what it may use; it follows a schema change at once (and, on
 * PostgreSQL, in another process); and a client generated from it at run time calls the API with
 * the same answers as direct calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { OpenAPIClientAxios } from 'openapi-client-axios';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/index.ts';
import { studioDocuments } from '../../server/studio/documents.ts';
import { memberships } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, testEnv, type TestApp } from './support/test-app.ts';
import { addField, contentFixture, createCollection, type ContentFixture } from './support/content.ts';
import { everyFieldTypeProject, type EveryFieldTypeProject } from './support/every-field-type.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';

type Doc = { openapi: string; paths: Record<string, Record<string, { operationId?: string; parameters?: { name: string }[] }>>; components: { schemas: Record<string, any> } };
const methods = ['get', 'post', 'put', 'delete'] as const;
const operationsOf = (doc: Doc) => Object.entries(doc.paths).flatMap(([path, item]) => methods.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`));

describe.each(databaseKinds)('Studio: the generated OpenAPI document on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let p: EveryFieldTypeProject;
  const tokens: Record<string, { id: string; jwtToken: string }> = {};
  let part: string;

  const publicCall = (path: string, token: string | undefined, method: 'GET' | 'POST' = 'GET', payload?: object) =>
    t.app.inject({ method, url: `/api/public/${path}`, headers: { ...(token ? bearer(token) : {}), 'accept-version': 'v1' }, ...(payload ? { payload } : {}) });
  const documentOf = async (token: string) => {
    const response = await publicCall('openapi.json', token);
    expect(response.statusCode, response.body).toBe(200);
    return json<Doc>(response);
  };
  async function mint(name: string, rights: Record<string, unknown>) {
    const response = await t.app.inject({ method: 'POST', url: '/api/apiTokens', headers: bearer(f.access), payload: { name, projectID: f.project, organizationID: f.org, ...rights } });
    expect(response.statusCode, response.body).toBe(201);
    tokens[name] = json(response);
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    p = await everyFieldTypeProject(f);
    part = (await p.part(p.items[0]!.id, { name: 'wheel', qty: 4 }))._id;
    await p.part(p.items[0]!.id, { name: 'axle', qty: 2 });
    await p.bolt(p.items[0]!.id, part, { size: 8 });
    await mint('full', { userAdmin: true, powerRead: true, powerWrite: true });
    await mint('reader', { powerRead: true });
    await mint('people', { roles: [{ collection: 'people', read: true }] });
  });
  afterAll(() => t?.close());

  it('is valid OpenAPI 3.1 for a project with every field type and nested levels, for a token and for the console', async () => {
    const validator = new Validator();
    const doc = await documentOf(tokens.full!.jwtToken);
    const result = await validator.validate(doc as never);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // Each level has its typed item schema and its own paths.
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['things', 'things.parts', 'things.parts.bolts', 'people', 'create_things', 'write_things.parts']));
    expect(schemas.things.properties.when).toMatchObject({ $ref: '#/components/schemas/value.Date' });
    expect(schemas['value.Date']).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
    expect(schemas.things.properties.parts).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/things.parts' } });
    expect(schemas.create_things).toMatchObject({ $ref: '#/components/schemas/write_things' });
    expect(schemas.write_things.properties.size.anyOf[0].properties._id.enum).toEqual(['s', 'm']);
    expect(schemas.write_things.properties.parts).toBeUndefined();
    const ops = operationsOf(doc);
    expect(ops).toEqual(
      expect.arrayContaining([
        'GET /collection/things/items',
        'POST /collection/things/items',
        'GET /collection/things/items/{item}',
        'GET /collection/things/items/{item}/nested/parts/items',
        'POST /collection/things/items/{item}/nested/parts/items',
        'PUT /collection/things/items/{item}/nested/parts/items/{partsID}',
        'PUT /collection/things/items/{item}/nested/parts/items/{partsID}/image',
        'GET /collection/things/items/{item}/nested/parts/items/{partsID}/nested/bolts/items',
        'DELETE /collection/things/items/{item}/nested/parts/items/{partsID}/nested/bolts/items/{boltsID}',
        'PUT /collection/things/items/{item}/image',
        'PUT /collection/things/items/{item}/field/{field}',
        'GET /collection/things/items/{item}/bagelUsers',
        'GET /collection/things/live',
        'POST /collection//assets',
        'POST /user',
        'POST /user/updatePassword',
      ]),
    );
    // The list parameters are those the public API's route declares.
    const list = (doc.paths['/collection/things/items']!.get!.parameters as unknown as { $ref: string }[]).map(({ $ref }) => (doc.components as any).parameters[$ref.split('/').pop()!].name);
    expect(list).toEqual(expect.arrayContaining(['query', 'find', 'sort', 'order', 'perPage', 'pageNumber', 'projectOn', 'projectOff', 'aggregationPipeline', 'everything']));
    expect((doc.paths['/collection/things/items']!.get as any).responses['200'].headers['item-count']).toBeDefined();
    expect((doc.paths['/user'] as any).servers[0].url).toBe('http://larder.test/auth/public');

    const member = await f.call('GET', 'studio/openapi.json');
    expect(member.statusCode, member.body).toBe(200);
    const memberResult = await new Validator().validate(json(member) as never);
    expect(memberResult.errors ?? []).toEqual([]);
    expect(operationsOf(json<Doc>(member)).sort()).toEqual(ops.sort());
  });

  it('types items as the API answers them: every list and item answer matches its schema', async () => {
    const doc = await documentOf(tokens.reader!.jwtToken);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'https://larder.test/doc', components: doc.components });
    const check = (schema: string, value: unknown) => {
      const validate = ajv.getSchema(`https://larder.test/doc#/components/schemas/${schema}`)!;
      expect(validate(value), `${schema}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(value).slice(0, 500)}`).toBe(true);
    };
    const things = json<Record<string, unknown>[]>(await publicCall('collection/things/items?projectOn=title,parts,size,people,when,place,gallery,image,data', tokens.reader!.jwtToken));
    expect(things.length).toBe(p.items.length);
    for (const item of things) check('things', item);
    const full = json<Record<string, unknown>[]>(await publicCall('collection/things/items?everything=true', tokens.reader!.jwtToken));
    for (const item of full) check('things', item);
    for (const item of json<Record<string, unknown>[]>(await publicCall('collection/people/items', tokens.reader!.jwtToken))) check('people', item);
    const parts = json<Record<string, unknown>[]>(await publicCall(`collection/things/items/${p.items[0]!.id}?nestedID=parts`, tokens.reader!.jwtToken));
    expect(parts).toHaveLength(2);
    for (const item of parts) check('things.parts', item);
    check('things.parts.bolts', json(await publicCall(`collection/things/items/${p.items[0]!.id}/nested/parts/items/${part}/nested/bolts/items`, tokens.reader!.jwtToken))[0]);
    // A value of the wrong type is refused by the same schema (the check can fail).
    const broken = { ...things[0], price: 'ten' };
    expect(ajv.getSchema('https://larder.test/doc#/components/schemas/things')!(broken)).toBe(false);
  });

  it('shows a token only what it may use', async () => {
    const reader = await documentOf(tokens.reader!.jwtToken);
    const readOps = operationsOf(reader);
    expect(readOps.filter((op) => !op.startsWith('GET ') && !op.startsWith('POST /user'))).toEqual([]);
    expect(readOps).not.toContain('POST /user/updatePassword');
    expect(Object.keys(reader.components.schemas).filter((name) => name.startsWith('create_') || name.startsWith('write_'))).toEqual([]);

    const people = await documentOf(tokens.people!.jwtToken);
    const collectionOps = operationsOf(people).filter((op) => op.includes('/collection/'));
    expect(collectionOps.sort()).toEqual(['GET /collection/people/items', 'GET /collection/people/items/{item}', 'GET /collection/people/live', 'GET /collection/people/schema'].sort());
    expect(Object.keys(people.components.schemas).filter((name) => name.includes('things'))).toEqual([]);

    // A project user's token: what their groups grant.
    const groups = await f.call('POST', 'userGroups', { name: 'Readers of people', permissions: [{ collection: 'people', read: true }] });
    expect(groups.statusCode, groups.body).toBe(201);
    const group = json<{ groupID: string }>(groups);
    const withGroup = json<{ id: string; jwtToken: string }>(
      await t.app.inject({ method: 'POST', url: '/api/apiTokens', headers: bearer(f.access), payload: { name: 'signup', projectID: f.project, organizationID: f.org, userGroupID: group.groupID } }),
    );
    const signUp = await t.app.inject({ method: 'POST', url: '/auth/public/user', headers: { ...bearer(withGroup.jwtToken), 'accept-version': 'v1' }, payload: { email: `studio${Date.now()}@example.test`, password: 'correct horse 1' } });
    expect(signUp.statusCode, signUp.body).toBe(201);
    const user = await documentOf(json<{ access_token: string }>(signUp).access_token);
    expect(operationsOf(user).filter((op) => op.includes('/collection/')).sort()).toEqual(collectionOps.sort());
  });

  it('refuses a missing or bad bearer with 401, as the public API does', async () => {
    expectProblem(await publicCall('openapi.json', undefined), 401, 'missing_token');
    expectProblem(await publicCall('openapi.json', 'not-a-token'), 401, 'invalid_token');
    const { tokens: stranger } = await verifiedUser(t.app, 'stranger');
    expectProblem(await f.call('GET', 'studio/openapi.json', undefined, { access: stranger.access_token }), 403);
  });

  it('is served from the cache, and changes the moment a field or a collection is added', async () => {
    const documents = studioDocuments(t.app);
    await documentOf(tokens.reader!.jwtToken);
    const builds = documents.builds;
    const hits = documents.hits;
    const before = await documentOf(tokens.reader!.jwtToken);
    expect(documents.builds).toBe(builds);
    expect(documents.hits).toBe(hits + 1);
    expect(before.components.schemas.people.properties.nickname).toBeUndefined();
    await addField(f, 'people', { name: 'Nickname', slug: 'nickname', type: 1 });
    const after = await documentOf(tokens.reader!.jwtToken);
    expect(after.components.schemas.people.properties.nickname).toMatchObject({ $ref: '#/components/schemas/value.PlainText' });
    expect(documents.builds).toBe(builds + 1);
    await createCollection(f, { id: 'notes', name: 'Notes', schema: [{ name: 'Text', slug: 'text', type: 1 }] });
    expect(operationsOf(await documentOf(tokens.reader!.jwtToken))).toContain('GET /collection/notes/items');
    // The console's document follows too, and a restricted member sees only their view.
    expect(operationsOf(json<Doc>(await f.call('GET', 'studio/openapi.json')))).toContain('POST /collection/notes/items');
    const { account, tokens: narrow } = await verifiedUser(t.app, 'narrow');
    const me = json<{ _id: string }>(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(narrow.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: { read: true } });
    await t.app.inject({ method: 'PUT', url: `/api/organization/${f.org}/project/${f.project}`, headers: bearer(f.access), payload: { settings: { restrictedView: { members: [account.email], collections: ['notes'] } } } });
    const restricted = json<Doc>(await f.call('GET', 'studio/openapi.json', undefined, { access: narrow.access_token }));
    expect(operationsOf(restricted).filter((op) => op.includes('/collection/') && !op.includes('/collection/notes/') && !op.includes('//assets'))).toEqual([]);
    await t.app.inject({ method: 'PUT', url: `/api/organization/${f.org}/project/${f.project}`, headers: bearer(f.access), payload: { settings: { restrictedView: null } } });
  });

  it.runIf(kind === 'postgres')('changes in another process the moment a field is added', async () => {
    const url = (t.database as { url?: string }).url!;
    const database = await openDatabase({ databaseUrl: url, poolSize: 2, skipMigrations: true });
    const other = await buildApp({ config: loadConfig({ ...testEnv, DATABASE_URL: url }), database });
    try {
      const read = async () => json<Doc>(await other.inject({ method: 'GET', url: '/api/public/openapi.json', headers: bearer(tokens.reader!.jwtToken) }));
      await read();
      const cached = await read();
      expect(studioDocuments(other).hits).toBeGreaterThan(0);
      expect(cached.components.schemas.people.properties.mood).toBeUndefined();
      await addField(f, 'people', { name: 'Mood', slug: 'mood', type: 1 });
      // The other process hears the change at commit; its next answer has the field.
      await other.ctx.caches.settle();
      expect((await read()).components.schemas.people.properties.mood).toBeDefined();
    } finally {
      await other.close();
      await database.close();
    }
  });

  it('drives a client generated from it at run time: the same answers as direct calls', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const clientFor = async (token: string) => {
      const definition = (await fetch(`${base}/api/public/openapi.json`, { headers: bearer(token) }).then((r) => r.json())) as Doc;
      const api = new OpenAPIClientAxios({
        definition: definition as never,
        withServer: { url: `${base}/api/public` },
        axiosConfigDefaults: { headers: { ...bearer(token), 'accept-version': 'v1' }, validateStatus: () => true },
      });
      return api.init();
    };
    const reader = (await clientFor(tokens.reader!.jwtToken)) as any;
    expect(reader.createThings).toBeUndefined();

    const filter = { query: 'price:>:6', sort: 'price', order: 'asc', perPage: 2 };
    const listed = await reader.listThings(filter);
    const direct = await publicCall(`collection/things/items?${new URLSearchParams(Object.entries(filter).map(([k, v]) => [k, String(v)]))}`, tokens.reader!.jwtToken);
    expect(listed.status).toBe(200);
    expect(listed.data).toEqual(json(direct));
    expect(listed.data).toHaveLength(2);
    expect(listed.data[0].price).toBe(10.5);
    expect(listed.headers['item-count']).toBe(direct.headers['item-count']);
    expect(listed.headers['item-count']).toBe('3');

    const found = await reader.getThings({ item: p.items[0]!.id });
    expect(found.data).toEqual(json(await publicCall(`collection/things/items/${p.items[0]!.id}`, tokens.reader!.jwtToken)));
    const parts = await reader.listThingsParts({ item: p.items[0]!.id, sort: 'qty' });
    expect(parts.data).toEqual(json(await publicCall(`collection/things/items/${p.items[0]!.id}?nestedID=parts&sort=qty`, tokens.reader!.jwtToken)));
    expect(parts.data.map((x: { name: string }) => x.name)).toEqual(['axle', 'wheel']);
    const bolt = await reader.listThingsPartsBolts({ item: p.items[0]!.id, partsID: part });
    expect(bolt.data.map((x: { size: number }) => x.size)).toEqual([8]);

    const writer = (await clientFor(tokens.full!.jwtToken)) as any;
    const created = await writer.createThings(null, { title: 'From the client', price: 42, size: { _id: 'm' } });
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    const stored = json<Record<string, unknown>>(await publicCall(`collection/things/items/${created.data.id}`, tokens.full!.jwtToken));
    expect(stored).toMatchObject({ title: 'From the client', price: 42, size: { _id: 'm', value: '-Minus' } });
    expect((await writer.getThings({ item: created.data.id })).data).toEqual(stored);
    const nested = await writer.createThingsParts({ item: created.data.id }, { name: 'bolt', qty: 1 });
    expect(nested.status).toBe(201);
    expect((await writer.getThingsParts({ item: created.data.id, partsID: nested.data.id })).data).toMatchObject({ name: 'bolt', qty: 1 });
    // The reader's client has no write; the API refuses the write the writer's client makes with a reader token.
    const refused = await writer.createThings(null, { title: 'no' }, { headers: bearer(tokens.reader!.jwtToken) });
    expect(refused.status).toBe(403);
  });
});
