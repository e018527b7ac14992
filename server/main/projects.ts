/** Projects of an organization, with their collections. Webhooks and files join the view as their issues land. */
import { and, eq, isNotNull } from 'drizzle-orm';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import { allowedActions, type MemberPermissions } from '../../definitions/permissions.ts';
import { collectionVisibility, isRestricted, normaliseRestrictedView, readRestrictedView, type RestrictedView } from '../../definitions/restricted-view.ts';
import { readRichTextSettings, richTextSettingKeys, type RichTextSettings } from '../../definitions/rich-text.ts';
import type { Db } from '../db/index.ts';
import { apiTokens, projects, webhooks } from '../db/schema.ts';
import { AppError, badRequest, forbidden, notFound } from '../lib/errors.ts';
import type { SharedCache } from '../lib/shared-cache.ts';
import { newId } from '../lib/ids.ts';
import { CollectionService, type CollectionRow } from '../content/collections.ts';
import { contentDropped } from '../content/drops.ts';
import type { Project, RestrictedViewSettings } from '../../definitions/schemas/project.ts';

export type ProjectRow = typeof projects.$inferSelect;

/** Who is looking: a member's e-mail and flags (AccessService's OrganizationAccess fits). */
export interface ProjectViewer {
  email: string;
  permissions: MemberPermissions;
}

/** What a viewer may see of a project's collections under its restricted view (settings.restrictedView). */
export interface CollectionVisibility {
  /** The viewer is in the restricted group. */
  restricted: boolean;
  visible(collectionId: string): boolean;
  /** A hidden collection answers exactly as one that does not exist. */
  require(collectionId: string): void;
  /** A restricted member cannot add collections: they would never see them, and an existing id would give a hidden one away. */
  requireUnrestricted(): void;
}

/** The restricted view is the one place that decides which collections a person sees. */
export function collectionVisibilityOf(row: Pick<ProjectRow, 'settings'>, viewer: ProjectViewer | undefined): CollectionVisibility {
  const view = viewer ? readRestrictedView(row.settings) : null;
  const restricted = viewer ? isRestricted(view, viewer.email) : false;
  const visible = restricted ? collectionVisibility(view, viewer!.email) : () => true;
  return {
    restricted,
    visible,
    require(collectionId) {
      // Same code and words as a collection that does not exist (server/content/collections.ts).
      if (!visible(collectionId)) throw notFound('collection_not_found', `There is no collection "${collectionId}" in this project.`, { collection: collectionId });
    },
    requireUnrestricted() {
      if (restricted) throw forbidden('restricted_view', 'You see a restricted view of this project and cannot add collections to it.');
    },
  };
}

const toView = (row: ProjectRow, collections: CollectionRow[], viewer?: ProjectViewer): Project => {
  const { visible } = collectionVisibilityOf(row, viewer);
  const settings = { ...(row.settings as Record<string, unknown>) };
  // Who sees what is the administrators' business; a restricted member must not learn the hidden ids from it.
  if (viewer && !allowedActions(viewer.permissions).admin) delete settings.restrictedView;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    organizationID: row.organizationId,
    createdDate: row.createdAt.toISOString(),
    collections: collections
      .filter((c) => visible(c.slug))
      .map((c) => ({ id: c.slug, name: c.name, schema: c.schema as SchemaField[], singleItem: c.singleItem, rtlDirection: c.rtlDirection })),
    webhooks: [],
    files: [],
    settings,
  };
};

/**
 * The fields of a project update. `settings.restrictedView` and `settings.richText.scriptsEnabled`
 * are the administrators' (checked by the route); the other rich-text switches are merged into
 * the stored ones.
 */
export interface ProjectUpdate {
  name?: string | undefined;
  description?: string | undefined;
  settings?: { restrictedView?: RestrictedView | null | undefined; richText?: Partial<RichTextSettings> | undefined } | undefined;
}

const settingsProblem = (errors: { path: string; message: string }[]) =>
  new AppError(400, 'validation_failed', errors.map((e) => `${e.path} ${e.message}`).join(', '), { errors });

export class ProjectService {
  constructor(
    private readonly db: Db,
    /** Project rows by id, per process (server/lib/shared-cache.ts; a trigger invalidates). */
    private readonly cache?: SharedCache<ProjectRow>,
    private readonly collections: CollectionService = new CollectionService(db),
  ) {}

  async row(organizationId: string, projectId: string): Promise<ProjectRow> {
    const missing = () => notFound('project_not_found', 'There is no such project in this organization.');
    // A missing project throws inside the load, so nothing is kept for it.
    const load = async () => (await this.db.select().from(projects).where(eq(projects.id, projectId)))[0] ?? Promise.reject(missing());
    const row = this.cache ? await this.cache.get(projectId, load) : await load();
    if (row.organizationId !== organizationId) throw missing();
    return row;
  }

  /** A project as `viewer` sees it (without a viewer, e.g. for an API token: every collection). */
  async get(organizationId: string, projectId: string, viewer?: ProjectViewer): Promise<Project> {
    const row = await this.row(organizationId, projectId);
    const view = toView(row, await this.collections.list(projectId), viewer);
    // The shell's Webhooks menu lists them; the webhooks themselves are server/webhooks.
    view.webhooks = await this.db.select({ id: webhooks.id, name: webhooks.name }).from(webhooks).where(eq(webhooks.projectId, projectId)).orderBy(webhooks.createdAt, webhooks.id);
    return view;
  }

  async restrictedView(organizationId: string, projectId: string): Promise<RestrictedViewSettings> {
    const row = await this.row(organizationId, projectId);
    const collections = await this.collections.list(projectId);
    return { restrictedView: readRestrictedView(row.settings), collections: collections.map((c) => ({ id: c.slug, name: c.name })) };
  }

  /**
   * Creates a project. A template must be a project of the same organization; its collections
   * and their schemas are copied (not their items), in the same transaction.
   */
  async create(organizationId: string, input: { name: string; description?: string | undefined }, templateId?: string): Promise<Project> {
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

  /**
   * Changes a project. A restricted view must name people of the organization's member list
   * (`memberEmails`) and collections of the project; otherwise nothing changes (400 naming each).
   */
  async update(organizationId: string, projectId: string, input: ProjectUpdate, options: { viewer?: ProjectViewer; memberEmails?: readonly string[] } = {}): Promise<Project> {
    const row = await this.row(organizationId, projectId);
    const changes: Partial<ProjectRow> = {};
    if (input.name !== undefined) changes.name = input.name.trim();
    if (input.description !== undefined) changes.description = input.description.trim();
    if (input.settings && input.settings.restrictedView !== undefined) {
      const settings = { ...(row.settings as Record<string, unknown>) };
      const view = input.settings.restrictedView;
      if (view === null) delete settings.restrictedView;
      else settings.restrictedView = await this.checkedRestrictedView(projectId, view, options.memberEmails ?? []);
      changes.settings = settings;
    }
    if (input.settings?.richText) {
      const settings = { ...((changes.settings ?? row.settings) as Record<string, unknown>) };
      const richText = readRichTextSettings(settings);
      for (const key of richTextSettingKeys) {
        const value = input.settings.richText[key];
        if (typeof value === 'boolean') richText[key] = value;
      }
      settings.richText = richText;
      changes.settings = settings;
    }
    if (Object.keys(changes).length) {
      await this.db.update(projects).set(changes).where(eq(projects.id, projectId));
      // The trigger tells every process at commit; this one must not answer from its old entry meanwhile.
      this.cache?.drop(projectId);
    }
    // Studio tokens carry the collections the view showed when minted: they end with a change of it
    // (docs/studio.md "Tokens in the workbench"; the row's trigger drops the cached token everywhere).
    if (input.settings?.restrictedView !== undefined) {
      await this.db.delete(apiTokens).where(and(eq(apiTokens.projectId, projectId), isNotNull(apiTokens.temporaryFor)));
    }
    return this.get(organizationId, projectId, options.viewer);
  }

  private async checkedRestrictedView(projectId: string, view: RestrictedView, memberEmails: readonly string[]): Promise<RestrictedView> {
    const members = new Set(memberEmails.map((email) => email.trim().toLowerCase()));
    const collections = new Set((await this.collections.list(projectId)).map((c) => c.slug));
    const base = 'body/settings/restrictedView';
    const errors = [
      ...view.members.flatMap((email, i) => (members.has(email.trim().toLowerCase()) ? [] : [{ path: `${base}/members/${i}`, message: 'is not a member of this organization' }])),
      ...view.collections.flatMap((id, i) => (collections.has(id) ? [] : [{ path: `${base}/collections/${i}`, message: 'is not a collection of this project' }])),
    ];
    if (errors.length) throw settingsProblem(errors);
    return normaliseRestrictedView(view);
  }

  /** Deletes a project; its collections' rows cascade and their trigger drops the item tables. */
  async delete(organizationId: string, projectId: string) {
    await this.row(organizationId, projectId);
    await this.db.delete(projects).where(eq(projects.id, projectId));
    this.cache?.drop(projectId);
    contentDropped(this.db, { orphanedProjects: true });
  }
}
