/**
 * Field operations of the public v1 API: `PUT|DELETE …/items/{id}/field/{f}` (append,
 * increment/decrement, unset/value) on the item as it is now, one field changed, retried on a
 * concurrent write. Every call needs the update right on the top-level collection.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { isItemId } from '../../definitions/content.ts';
import { fieldType, type SchemaField } from '../../definitions/field-types/index.ts';
import { invalid, levelOf } from '../content/collections.ts';
import type { Item } from '../content/storage.ts';
import { requireAssociated, requireRight } from './principal.ts';
import { changeField, inField, nestedQuery, objectBody, principalOf, security, tags, type PublicApp } from './support.ts';
import { IdAnswer, levelOfChain } from './item-answers.ts';

export async function publicItemFieldRoutes(fastify: PublicApp) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { collections, items } = app.ctx;

  /** The principal's right, the item as it is now and its field, and a change of that field. */
  async function fieldOf(request: FastifyRequest, params: { collection: string; item: string; field: string }, query: { nestedID?: string | undefined }) {
    const principal = principalOf(request);
    const { collection, item, field: slug } = params;
    const grant = await requireRight(app, principal, collection, 'update');
    await requireAssociated(app, principal, grant, collection, item);
    const nestedID = query.nestedID || undefined;
    const found = await items.get(principal.projectId, collection, item, nestedID, { pageNumber: 1, perPage: 0 });
    if (!('item' in found)) throw invalid([{ path: 'nestedID', message: 'must end with the id of the nested item to change' }]);
    const level = levelOfChain(levelOf(await collections.schemaRow(principal.projectId, collection)), nestedID);
    const field = level.fields.find((f) => f.slug === slug);
    const type = field ? fieldType(field.type) : undefined;
    if (!field || !type) throw invalid([{ path: 'field', message: `"${slug}" is not a field of this item` }]);
    const change = (fn: (current: unknown) => unknown) => changeField(items, principal.projectId, { collection, item, nestedID }, slug, found.item, fn);
    return { field: field as SchemaField, modifiers: type.modifiers ?? [], change };
  }

  const linkIds = (value: unknown, path: string): string[] => {
    const list = Array.isArray(value) ? value : [value];
    const ids = list.map((v) => (typeof v === 'object' && v !== null ? (v as { itemRefID?: unknown }).itemRefID : v));
    if (ids.length === 0 || ids.some((id) => !isItemId(id))) throw invalid([{ path, message: 'must be the id of an item (or a list of them)' }]);
    return ids as string[];
  };
  const linksOf = (current: unknown) => (Array.isArray(current) ? (current as { itemRefID: string }[]) : []);

  const fieldQuery = Type.Object({ increment: Type.Optional(Type.String({ maxLength: 40 })), ...nestedQuery });

  app.put(
    '/collection/:collection/items/:item/field/:field',
    {
      schema: {
        summary: 'Append an item link to an ItemRef field (body {value}), or add ?increment=n to a Number field (update)',
        tags,
        security,
        params: inField,
        querystring: fieldQuery,
        body: Type.Unknown(),
        response: { 200: IdAnswer },
      },
    },
    async function changeItemField(request, reply) {
      const { field, modifiers, change } = await fieldOf(request, request.params, request.query);
      let updated: Item;
      if (request.query.increment !== undefined) {
        const by = Number(request.query.increment);
        if (request.query.increment.trim() === '' || !Number.isFinite(by)) throw invalid([{ path: 'increment', message: 'must be a number' }]);
        if (!modifiers.includes('increment')) throw invalid([{ path: 'field', message: `"${field.slug}" is not a Number field` }]);
        updated = await change((current) => (typeof current === 'number' ? current : 0) + by);
      } else {
        const body = objectBody(request.body);
        if (!modifiers.includes('append')) throw invalid([{ path: 'field', message: `"${field.slug}" is not an ItemRef field: only links can be appended` }]);
        const ids = linkIds(body.value, 'value');
        updated = await change((current) => {
          const links: { itemRefID: string }[] = [...linksOf(current)];
          for (const id of ids) if (!links.some((link) => link.itemRefID === id)) links.push({ itemRefID: id });
          return links;
        });
      }
      return reply.send({ id: updated._id });
    },
  );

  app.delete(
    '/collection/:collection/items/:item/field/:field',
    {
      schema: {
        summary: 'Remove the link {value} from an ItemRef field; any other field is emptied (update). The client sends unset() and value() this way.',
        tags,
        security,
        params: inField,
        querystring: Type.Object(nestedQuery),
        body: Type.Unknown(),
        response: { 200: IdAnswer },
      },
    },
    async function emptyItemField(request, reply) {
      const { modifiers, change } = await fieldOf(request, request.params, request.query);
      const body = objectBody(request.body, true);
      let updated: Item;
      if (modifiers.includes('append') && body.value !== undefined && body.value !== null) {
        const ids = linkIds(body.value, 'value');
        updated = await change((current) => {
          const rest = linksOf(current).filter((link) => !ids.includes(link.itemRefID));
          return rest.length ? rest : null;
        });
      } else {
        updated = await change(() => null);
      }
      return reply.send({ id: updated._id });
    },
  );
}
