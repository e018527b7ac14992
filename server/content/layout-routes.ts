/**
 * Layout settings of a collection's lists (docs/layouts.md) under
 * `/api/organization/{org}/project/{proj}/`:
 * - `GET collection/{c}/layout?nestedID` answers the settings of the top-level list or of a nested
 *   collection's lists (read);
 * - `PUT collection/{c}/layout?nestedID {layout, startKey, endKey, durationKey, titleKeys, center,
 *   activeField}` merges the given keys into them, `null` removing a key (update).
 * Settings are kept with the collection (column `layouts`, keyed by nested path: '' for the top
 * level, else the nested collection slugs joined by '.' — so every parent item's nested list of one
 * nested collection shares them) and shared by the team. A key must name a field of the level
 * that fits (definitions/layout-settings.ts); setting endKey drops durationKey and the other way
 * round, as they are mutually exclusive. Same permission and visibility checks as the content API.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { layoutKinds } from '../../definitions/layout-settings.ts';
import { responses } from '../lib/schemas.ts';
import { layouts } from './layouts.ts';
import { CollectionId, Id, NestedId } from './route-schemas.ts';

const Slug = Type.String({ minLength: 1, maxLength: 200 });
const Center = Type.Object(
  {
    lat: Type.Number({ minimum: -90, maximum: 90 }),
    lng: Type.Number({ minimum: -180, maximum: 180 }),
    zoom: Type.Optional(Type.Integer({ minimum: 0, maximum: 20, description: 'default 6' })),
  },
  { additionalProperties: false },
);
const Kind = Type.Union(layoutKinds.map((kind) => Type.Literal(kind)));
const TitleKeys = Type.Array(Slug, { maxItems: 10, description: 'fields whose values make an item’s title' });

const Settings = Type.Object(
  {
    layout: Type.Optional(Kind),
    startKey: Type.Optional(Type.String({ description: 'calendar: a Date field, the start' })),
    endKey: Type.Optional(Type.String({ description: 'calendar: a Date field, the end' })),
    durationKey: Type.Optional(Type.String({ description: 'calendar: a Number field, the duration in minutes' })),
    titleKeys: Type.Optional(Type.Array(Type.String())),
    center: Type.Optional(Type.Object({ lat: Type.Number(), lng: Type.Number(), zoom: Type.Optional(Type.Number()) })),
    activeField: Type.Optional(Type.String({ description: 'kanban: an Option field; map: a GeoPoint field' })),
  },
  { description: 'the layout settings of one list (docs/layouts.md)' },
);
const orNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const SettingsPatch = Type.Object(
  {
    layout: orNull(Kind),
    startKey: orNull(Slug),
    endKey: orNull(Slug),
    durationKey: orNull(Slug),
    titleKeys: orNull(TitleKeys),
    center: orNull(Center),
    activeField: orNull(Slug),
  },
  { additionalProperties: false, description: 'keys to set; null removes a key; keys left out stay as they are' },
);
type Patch = Static<typeof SettingsPatch>;

export async function layoutRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { database, collections } = app.ctx;
  const security = [{ bearer: [] as string[] }];

  app.addHook('onRequest', app.requireUser);

  const params = Type.Object({ org: Id, proj: Id, collection: CollectionId });
  const querystring = Type.Object(
    { nestedID: Type.Optional(NestedId) },
    { additionalProperties: false, description: 'nestedID: the nested collection (slugs, or the item chain of item calls); empty for the top level' },
  );

  app.get(
    '/collection/:collection/layout',
    {
      config: { action: 'read', scope: 'collection' },
      schema: {
        summary: 'The layout settings of the collection’s list, or of a nested collection’s lists (read)',
        tags: ['collections'],
        security,
        params,
        querystring,
        response: responses({ 200: Settings }),
      },
    },
    async function readLayout(request) {
      return layouts.read(collections, request.params.proj, request.params.collection, request.query.nestedID || undefined);
    },
  );

  app.put(
    '/collection/:collection/layout',
    {
      config: { action: 'update', scope: 'collection' },
      schema: {
        summary: 'Change the layout settings of the collection’s list or of a nested collection’s lists (update)',
        description:
          'Merges the given keys into the stored settings; `null` removes a key. startKey and endKey must name Date fields, durationKey a Number field, ' +
          'activeField an Option (kanban) or GeoPoint (map) field, titleKeys fields of the list’s schema. endKey and durationKey are mutually exclusive: ' +
          'setting one removes the other. Answers the settings as stored.',
        tags: ['collections'],
        security,
        params,
        querystring,
        body: SettingsPatch,
        response: responses({ 200: Settings }),
      },
    },
    async function changeLayout(request) {
      const patch: Patch = request.body;
      return layouts.change(database.db, collections, request.params.proj, request.params.collection, request.query.nestedID || undefined, patch);
    },
  );
}
