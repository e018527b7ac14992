/**
 * A collection's list layout settings, kept with the collection (column `layouts`, keyed by nested
 * path: '' for the top level, else the nested collection slugs joined by '.'; docs/layouts.md).
 * A change merges the given keys into the stored ones inside one transaction, `null` removing a
 * key; endKey and durationKey exclude each other.
 */
import { and, eq } from 'drizzle-orm';
import { layoutSettingsProblems, type LayoutSettings } from '../../definitions/layout-settings.ts';
import type { Db } from '../db/index.ts';
import { contentCollections } from '../db/schema.ts';
import { invalid, schemaLevel, type CollectionService } from './collections.ts';

/** The key a nested path is stored under: the level's nested collection slugs ('' top level). */
const pathKey = (path: readonly string[]) => path.join('.');
const storedOf = (layouts: unknown, key: string): LayoutSettings => ((layouts as Record<string, LayoutSettings> | null | undefined) ?? {})[key] ?? {};

export const layouts = {
  async read(collections: CollectionService, projectId: string, slug: string, nestedID: string | undefined): Promise<LayoutSettings> {
    const row = await collections.row(projectId, slug);
    return storedOf(row.layouts, pathKey(schemaLevel(row, nestedID).path));
  },

  async change(db: Db, collections: CollectionService, projectId: string, slug: string, nestedID: string | undefined, patch: Record<string, unknown>): Promise<LayoutSettings> {
    return db.transaction(async (tx) => {
      const row = await collections.row(projectId, slug, tx, 'update');
      const level = schemaLevel(row, nestedID);
      const given: LayoutSettings = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== null && value !== undefined));
      const problems = layoutSettingsProblems(level.fields, given);
      if (problems.length) throw invalid(problems);
      const key = pathKey(level.path);
      const stored = { ...((row.layouts as Record<string, LayoutSettings> | null) ?? {}) };
      const next: Record<string, unknown> = { ...storedOf(stored, key) };
      if (given.endKey !== undefined) delete next.durationKey;
      if (given.durationKey !== undefined) delete next.endKey;
      for (const [name, value] of Object.entries(patch)) {
        if (value === null) delete next[name];
        else if (value !== undefined) next[name] = value;
      }
      stored[key] = next as LayoutSettings;
      await tx
        .update(contentCollections)
        .set({ layouts: stored })
        .where(and(eq(contentCollections.projectId, projectId), eq(contentCollections.id, row.id)));
      return stored[key];
    });
  },
};
