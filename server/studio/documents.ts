/**
 * The generated documents, cached per project and scope until the project's schema changes
 * (docs/studio.md "The generated document"). A project's entry holds its collections as read and
 * one document per scope (the operations a caller may use on each collection). It watches the
 * shared caches' entries of the project row and of each of its collections
 * (server/lib/shared-cache.ts): the triggers of migration 0006 name a changed or deleted
 * collection and a changed project to every process at commit, and a new collection names its
 * project (server/content/collections.ts), so any process drops the entry when the schema
 * changes. A load during which anything changed is used once and not kept.
 */
import type { FastifyInstance } from 'fastify';
import { asc, eq } from 'drizzle-orm';
import { contentCollections } from '../db/schema.ts';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import { mayStoreAssets, tokenAllows, can, type Principal } from '../public/principal.ts';
import type { ProjectRow } from '../main/projects.ts';
import { buildDocument, type DocumentCollection, type DocumentScope, type Operation, type Rights } from './openapi.ts';
import { publicSurface } from './surface.ts';

const operations: Operation[] = ['read', 'create', 'update', 'delete'];
/** A safety net only: invalidations, not time, keep entries right. */
const ttlMs = 10 * 60_000;
const maxProjects = 1000;
/** Documents per project (scopes: tokens with different rights). */
const maxScopes = 200;
/**
 * Characters of documents kept, every project together: a big project's document is about 1 MB
 * and every different set of rights makes its own, so without this bound an organization's
 * tokens could fill the server's memory (docs/studio.md "The generated document").
 */
export const defaultCacheChars = 64 * 1024 * 1024;

/** The name of a shared cache's entry as `CacheRegistry.watch` takes it (`cache` NUL `key`). */
const entryName = (cache: string, key: string) => `${cache}\u0000${key}`;

interface ProjectEntry {
  project: { id: string; name: string; description: string | null };
  collections: DocumentCollection[];
  documents: Map<string, string>;
  expires: number;
  stop: () => void;
}

export class StudioDocuments {
  private readonly projects = new Map<string, ProjectEntry>();
  /** Fresh builds and answers from the cache, for the bench and the tests. */
  builds = 0;
  hits = 0;
  /** The bound on the characters kept (tests lower it). */
  maxChars = defaultCacheChars;
  /** The characters kept now. */
  chars = 0;
  /** Every kept document, least recently used first (project id NUL scope key → its length). */
  private readonly kept = new Map<string, number>();

  constructor(private readonly app: FastifyInstance) {}

  /** The document for an API token or a project user's token of the project. */
  async forPrincipal(principal: Principal): Promise<string> {
    const entry = await this.entry(await this.app.ctx.projects.row(principal.organizationId, principal.projectId));
    const rights = new Map<string, Rights>();
    for (const { slug } of entry.collections) {
      const allowed = {} as Rights;
      for (const op of operations) {
        allowed[op] = principal.kind === 'token' ? tokenAllows(principal.rights, slug, op) : (await can(this.app, principal, slug, op)).allowed;
      }
      rights.set(slug, allowed);
    }
    const token = principal.kind === 'token';
    return this.document(entry, {
      collections: rights,
      userAdmin: token && principal.rights.userAdmin,
      assets: mayStoreAssets(principal),
      caller: token ? 'this API token' : 'this project user',
    });
  }

  /** The whole project as a member sees it (every collection of their view, every operation). */
  async forMember(project: ProjectRow, visible: (slug: string) => boolean): Promise<string> {
    const entry = await this.entry(project);
    const all: Rights = { read: true, create: true, update: true, delete: true };
    const rights = new Map(entry.collections.filter((c) => visible(c.slug)).map((c) => [c.slug, all]));
    return this.document(entry, { collections: rights, userAdmin: true, assets: true, caller: 'a token with every right' });
  }

  private document(entry: ProjectEntry, scope: DocumentScope): string {
    const key = [scope.caller, scope.userAdmin, scope.assets, ...[...scope.collections].map(([slug, r]) => `${slug}:${operations.map((op) => (r[op] ? 1 : 0)).join('')}`)].join('|');
    const known = entry.documents.get(key);
    const name = `${entry.project.id}\u0000${key}`;
    if (known !== undefined) {
      this.hits += 1;
      const size = this.kept.get(name);
      if (size !== undefined) {
        this.kept.delete(name);
        this.kept.set(name, size);
      }
      return known;
    }
    this.builds += 1;
    const text = JSON.stringify(
      buildDocument({ project: entry.project, collections: entry.collections, scope, surface: publicSurface(this.app), publicUrl: this.app.ctx.config.publicUrl }),
    );
    // A project entry used once (not kept) keeps nothing either.
    if (this.projects.get(entry.project.id) !== entry) return text;
    if (entry.documents.size >= maxScopes) this.forget(entry.project.id, entry.documents.keys().next().value!);
    entry.documents.set(key, text);
    this.kept.set(name, text.length);
    this.chars += text.length;
    // The least recently used documents go first, of any project (the newest always stays).
    for (const [oldest] of this.kept) {
      if (this.chars <= this.maxChars || oldest === name) break;
      const cut = oldest.indexOf('\u0000');
      this.forget(oldest.slice(0, cut), oldest.slice(cut + 1));
    }
    return text;
  }

  /** Forgets one kept document. */
  private forget(projectId: string, key: string) {
    const name = `${projectId}\u0000${key}`;
    const size = this.kept.get(name);
    if (size !== undefined) {
      this.kept.delete(name);
      this.chars -= size;
    }
    this.projects.get(projectId)?.documents.delete(key);
  }

  /** The project's entry: cached, or read and watched. */
  private async entry(row: ProjectRow): Promise<ProjectEntry> {
    const cached = this.projects.get(row.id);
    if (cached && cached.expires > Date.now()) return cached;
    if (cached) this.drop(row.id);
    const { caches } = this.app.ctx;
    const changesBefore = caches.changeCount;
    // Only what the document needs (not the layouts, the storage tables or the counters).
    const rows = await this.app.ctx.database.db
      .select({ slug: contentCollections.slug, name: contentCollections.name, schema: contentCollections.schema })
      .from(contentCollections)
      .where(eq(contentCollections.projectId, row.id))
      .orderBy(asc(contentCollections.createdAt), asc(contentCollections.slug));
    const entry: ProjectEntry = {
      project: { id: row.id, name: row.name, description: row.description },
      collections: rows.map((c) => ({ slug: c.slug, name: c.name, schema: c.schema as SchemaField[] })),
      documents: new Map(),
      expires: Date.now() + ttlMs,
      stop: () => undefined,
    };
    const watched = [entryName('project', row.id), ...rows.map((c) => entryName('collection', `${row.id}:${c.slug}`))];
    entry.stop = caches.watch(watched, () => this.drop(row.id));
    // A change heard while reading may be one the rows missed: use them once, keep nothing.
    if (caches.changeCount !== changesBefore) {
      entry.stop();
      return entry;
    }
    if (this.projects.size >= maxProjects) this.drop(this.projects.keys().next().value!);
    this.projects.set(row.id, entry);
    return entry;
  }

  private drop(projectId: string) {
    const entry = this.projects.get(projectId);
    if (!entry) return;
    entry.stop();
    for (const key of [...entry.documents.keys()]) this.forget(projectId, key);
    this.projects.delete(projectId);
  }

  /** Forgets everything (at close). */
  clear() {
    for (const id of [...this.projects.keys()]) this.drop(id);
  }
}

const services = new WeakMap<object, StudioDocuments>();

/** The application's one document cache (the console's route and the public one share it; plugins share `ctx`). */
export function studioDocuments(app: FastifyInstance): StudioDocuments {
  let service = services.get(app.ctx);
  if (!service) {
    service = new StudioDocuments(app);
    services.set(app.ctx, service);
    const created = service;
    app.addHook('onClose', async () => created.clear());
  }
  return service;
}
