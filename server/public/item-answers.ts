/**
 * What the public item routes share: the list parameters, the answers' shapes, and a list or item
 * answer with its ItemRef links expanded (`everything=true`).
 */
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import { isItemId, parseNestedId } from '../../definitions/content.ts';
import { fieldType } from '../../definitions/field-types/index.ts';
import { badRequest } from '../lib/errors.ts';
import { levelOf } from '../content/collections.ts';
import type { ListResult } from '../content/query/index.ts';
import { ListParams } from '../content/route-schemas.ts';
import { levelAt, type SchemaLevel } from '../content/schema-tree.ts';
import { can, type Principal } from './principal.ts';
import { nestedQuery, type PublicApp } from './support.ts';

/** The list parameters the client sends, plus `everything`. */
export const listQuery = Type.Object({
  pageNumber: ListParams.pageNumber,
  perPage: ListParams.perPage,
  sort: ListParams.sort,
  order: ListParams.order,
  query: ListParams.query,
  find: ListParams.find,
  aggregationPipeline: ListParams.aggregationPipeline,
  projectOn: ListParams.projectOn,
  projectOff: ListParams.projectOff,
  everything: Type.Optional(Type.String({ maxLength: 10, description: 'true: each ItemRef link also carries the linked item as `item`' })),
  ...nestedQuery,
});

export const IdAnswer = Type.Object({ id: Type.String() });
export const Entry = Type.Record(Type.String(), Type.Unknown());

/**
 * `everything=true`: each ItemRef link of the items gets the linked item as `item` (one query per
 * ItemRef field), for collections the principal may read; the others' links stay as they are.
 */
export async function expandLinks(app: PublicApp, principal: Principal, level: SchemaLevel, entries: Record<string, unknown>[]) {
  const { collections, itemQueries: queries } = app.ctx;
  const linkFields = level.fields.filter((f) => fieldType(f.type)?.settings.includes('referenceCollectionID') && typeof f.referenceCollectionID === 'string');
  for (const field of linkFields) {
    const links = entries.flatMap((entry) => (Array.isArray(entry[field.slug]) ? (entry[field.slug] as Record<string, unknown>[]) : []));
    const ids = [...new Set(links.map((link) => link?.itemRefID).filter((id): id is string => isItemId(id)))];
    if (ids.length === 0) continue;
    const slug = field.referenceCollectionID as string;
    if (!(await can(app, principal, slug, 'read')).allowed) continue;
    let target: SchemaLevel;
    try {
      target = levelOf(await collections.schemaRow(principal.projectId, slug));
    } catch {
      continue;
    }
    const found = new Map((await queries.byIds(target, ids)).map((linked) => [linked._id, linked]));
    for (const link of links) {
      const item = typeof link?.itemRefID === 'string' ? found.get(link.itemRefID) : undefined;
      if (item) link.item = item;
    }
  }
}

/** A list answer: the page, the `item-count` header (the total matching), links expanded with `everything`. */
export async function sendList(app: PublicApp, reply: FastifyReply, principal: Principal, level: SchemaLevel, result: ListResult, everything: boolean) {
  // No total when the caller asked for none (`total=false`).
  if (result.total !== undefined) reply.header('item-count', String(result.total));
  if (!everything) {
    if (result.json !== undefined) return reply.type('application/json; charset=utf-8').send(result.json);
    return reply.send(result.items);
  }
  const entries = result.json !== undefined ? (JSON.parse(result.json) as Record<string, unknown>[]) : result.items;
  await expandLinks(app, principal, level, entries);
  return reply.send(entries);
}

/** The schema level a nestedID chain ends at (for `everything` on nested lists and items). */
export function levelOfChain(top: SchemaLevel, nestedID: string | undefined): SchemaLevel {
  const steps = nestedID ? parseNestedId(nestedID) : [];
  const slugs = (steps ?? []).flatMap((step) => (step.kind === 'collection' ? [step.slug] : []));
  return levelAt(top, slugs) ?? top;
}

/** The rows the list parameters of an "associated items only" caller are narrowed to. */
export function narrowed<T extends { find?: string | undefined }>(params: T, ids: string[] | undefined): T {
  if (!ids) return params;
  const own = { _id: { $in: ids } };
  let find: unknown = own;
  if (params.find) {
    try {
      find = { $and: [JSON.parse(params.find), own] };
    } catch {
      throw badRequest('invalid_query', 'find must be JSON.');
    }
  }
  return { ...params, find: JSON.stringify(find) };
}

export const everythingOf = (value: string | undefined) => value === 'true';
