/** Projects of an organization. Collections, webhooks and files join the view as their issues land. */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { projects } from '../db/schema.ts';
import { badRequest, notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';

export interface ProjectView {
  id: string;
  name: string;
  description: string;
  organizationID: string;
  createdDate: string;
  collections: { id: string; name: string }[];
  webhooks: { id: string; name: string }[];
  files: { fileName: string }[];
  settings: Record<string, unknown>;
}

type ProjectRow = typeof projects.$inferSelect;

const toView = (row: ProjectRow): ProjectView => ({
  id: row.id,
  name: row.name,
  description: row.description,
  organizationID: row.organizationId,
  createdDate: row.createdAt.toISOString(),
  collections: [],
  webhooks: [],
  files: [],
  settings: row.settings as Record<string, unknown>,
});

export class ProjectService {
  constructor(private readonly db: Db) {}

  async row(organizationId: string, projectId: string): Promise<ProjectRow> {
    const [row] = await this.db
      .select()
      .from(projects)
      .where(and(eq(projects.id, projectId), eq(projects.organizationId, organizationId)));
    if (!row) throw notFound('project_not_found', 'There is no such project in this organization.');
    return row;
  }

  async get(organizationId: string, projectId: string): Promise<ProjectView> {
    return toView(await this.row(organizationId, projectId));
  }

  /**
   * Creates a project. A template must be a project of the same organization; copying its
   * collections arrives with the content model, so for now the template is only checked.
   */
  async create(organizationId: string, input: { name: string; description?: string | undefined }, templateId?: string): Promise<ProjectView> {
    if (templateId) {
      const [template] = await this.db
        .select({ id: projects.id })
        .from(projects)
        .where(and(eq(projects.id, templateId), eq(projects.organizationId, organizationId)));
      if (!template) throw badRequest('template_not_found', 'The template must be a project of this organization.');
    }
    const [row] = await this.db
      .insert(projects)
      .values({ id: newId(), organizationId, name: input.name.trim(), description: (input.description ?? '').trim() })
      .returning();
    return toView(row!);
  }

  async update(organizationId: string, projectId: string, input: { name?: string | undefined; description?: string | undefined }): Promise<ProjectView> {
    await this.row(organizationId, projectId);
    const changes: Partial<ProjectRow> = {};
    if (input.name !== undefined) changes.name = input.name.trim();
    if (input.description !== undefined) changes.description = input.description.trim();
    if (Object.keys(changes).length) await this.db.update(projects).set(changes).where(eq(projects.id, projectId));
    return this.get(organizationId, projectId);
  }

  async delete(organizationId: string, projectId: string) {
    await this.row(organizationId, projectId);
    await this.db.delete(projects).where(eq(projects.id, projectId));
  }
}
