/**
 * Changes that take stored content away without an item write of their own: a schema change (a
 * field dropped), a collection deleted, a project or organization deleted. The services that make
 * them say so once they commit; whoever keeps things belonging to content (the file sweeper,
 * server/files/files.ts) listens. Keyed by the database, like the schema caches: every service
 * built on it reaches the same listener without being handed it.
 */

/** What went: a collection's schema changed, a collection of a project, or projects. */
export type ContentDrop = { collectionId: string } | { projectId: string } | { orphanedProjects: true };

const listeners = new WeakMap<object, (drop: ContentDrop) => void>();

/** Hears the drops of writes through this database (called once, where the listener is built). */
export function onContentDropped(db: object, listener: (drop: ContentDrop) => void): void {
  listeners.set(db, listener);
}

/** Tells the listener of this database, if any, what a committed change took away. */
export function contentDropped(db: object, drop: ContentDrop): void {
  listeners.get(db)?.(drop);
}
