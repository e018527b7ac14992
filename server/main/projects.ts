/** Projects of an organization, with their collections. Webhooks and files join the view as their issues land. */
import { and, eq } from 'drizzle-orm';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import type { Db } from '../db/index.ts';
import { projects } from '../db/schema.ts';
import { badRequest, notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { CollectionService, type CollectionRow } from '../content/collections.ts';

/** A collection as the project view lists it. */
export interface ProjectCollection {
  id: string;
  name: string;
  schema: SchemaField[];
  singleItem: boolean;
  rtlDirection: boolean;
}

export interface ProjectView {
  id: string;
  name: string;
  description: string;
  organizationID: string;
  createdDate: string;
  collections: ProjectCollection[];
  webhooks: { id: string; name: string }[];
  files: { fileName: string }[];
  settings: Record<string, unknown>;
}

type ProjectRow = typeof projects.$inferSelect;

const toView = (row: ProjectRow, collections: CollectionRow[]): ProjectView => ({
  id: row.id,
  name: row.name,
  description: row.description,
  organizationID: row.organizationId,
  createdDate: row.createdAt.toISOString(),
  collections: collections.map((c) => ({ id: c.slug, name: c.name, schema: c.schema as SchemaField[], singleItem: c.singleItem, rtlDirection: c.rtlDirection })),
  webhooks: [],
  files: [],
  settings: row.settings as Record<string, unknown>,
});

export class ProjectService {
  private readonly collections: CollectionService;

  constructor(private readonly db: Db) {
    this.collections = new CollectionService(db);
  }

  async row(organizationId: string, projectId: string): Promise<ProjectRow> {
    const [row] = await this.db
      .select()
      .from(projects)
      .where(and(eq(projects.id, projectId), eq(projects.organizationId, organizationId)));
    if (!row) throw notFound('project_not_found', 'There is no such project in this organization.');
    return row;
  }

  async get(organizationId: string, projectId: string): Promise<ProjectView> {
    const row = await this.row(organizationId, projectId);
    return toView(row, await this.collections.list(projectId));
  }

  /**
   * Creates a project. A template must be a project of the same organization; its collections
   * and their schemas are copied (not their items), in the same transaction.
   */
  async create(organizationId: string, input: { name: string; description?: string | undefined }, templateId?: string): Promise<ProjectView> {
    if (templateId) {
      const [template] = await this.db
        .select({ id: projects.id })
        .from(projects)
        .where(and(eq(projects.id, templateId), eq(projects.organizationId, organizationId)));
      if (!template) throw badRequest('template_not_found', 'The template must be a project of this organization.');
    }
    const id = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(projects)
        .values({ id: newId(), organizationId, name: input.name.trim(), description: (input.description ?? '').trim() })
        .returning();
      if (templateId) await this.collections.copyProject(tx, templateId, row!.id);
      return row!.id;
    });
    return this.get(organizationId, id);
  }

  async update(organizationId: string, projectId: string, input: { name?: string | undefined; description?: string | undefined }): Promise<ProjectView> {
    await this.row(organizationId, projectId);
    const changes: Partial<ProjectRow> = {};
    if (input.name !== undefined) changes.name = input.name.trim();
    if (input.description !== undefined) changes.description = input.description.trim();
    if (Object.keys(changes).length) await this.db.update(projects).set(changes).where(eq(projects.id, projectId));
    return this.get(organizationId, projectId);
  }

  /** Deletes a project; its collections' rows cascade and their trigger drops the item tables. */
  async delete(organizationId: string, projectId: string) {
    await this.row(organizationId, projectId);
    await this.db.delete(projects).where(eq(projects.id, projectId));
  }
}
