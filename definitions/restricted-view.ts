/**
 * A project's restricted view: a rule that hides every collection but some named ones from some
 * named members of one project, kept as data rather than hard-coded ids. It lives in the project's
 * settings as `settings.restrictedView`:
 *
 *   { members: string[]; collections: string[] }   or absent / null (off)
 *
 * `members` are e-mail addresses of the organization's member list (active members or pending
 * invitations; the member list API names people by e-mail, not by id), compared without case.
 * `collections` are collection ids of the project. A listed member sees only the listed
 * collections of that project; everyone else sees all of them. It is a view: API tokens keep
 * their own roles, and an administrator may be listed too but can always change the setting.
 * The server enforces it (hidden collections answer 404); the console only draws what it is sent.
 */
import { emailSchema } from './schemas/account.ts';
import { contentLimits } from './content.ts';

export interface RestrictedView {
  members: string[];
  collections: string[];
}

export const restrictedViewLimits = {
  /** People in the restricted group. */
  membersMax: 500,
  /** Collections the group sees. */
  collectionsMax: 1000,
} as const;

/** JSON Schema of `settings.restrictedView` when it is set (null turns it off). */
export const restrictedViewSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['members', 'collections'],
  properties: {
    members: { type: 'array', minItems: 1, maxItems: restrictedViewLimits.membersMax, items: emailSchema },
    collections: {
      type: 'array',
      maxItems: restrictedViewLimits.collectionsMax,
      items: { type: 'string', minLength: 1, maxLength: contentLimits.collectionIdMax, pattern: '^[A-Za-z0-9-]+$' },
    },
  },
} as const;

const normalEmail = (email: string) => email.trim().toLowerCase();

/** The restricted view kept in a project's settings, or null when it is off (or unreadable). */
export function readRestrictedView(settings: unknown): RestrictedView | null {
  if (!settings || typeof settings !== 'object') return null;
  const view = (settings as { restrictedView?: unknown }).restrictedView;
  if (!view || typeof view !== 'object') return null;
  const { members, collections } = view as { members?: unknown; collections?: unknown };
  if (!Array.isArray(members) || !Array.isArray(collections)) return null;
  return {
    members: members.filter((m): m is string => typeof m === 'string'),
    collections: collections.filter((c): c is string => typeof c === 'string'),
  };
}

/** The same view with e-mails lower-cased and both lists without repeats, as it is stored. */
export function normaliseRestrictedView(view: RestrictedView): RestrictedView {
  return { members: [...new Set(view.members.map(normalEmail))], collections: [...new Set(view.collections)] };
}

/** Whether the person with this e-mail is in the restricted group. */
export function isRestricted(view: RestrictedView | null, email: string | null | undefined): boolean {
  if (!view || !email) return false;
  const mine = normalEmail(email);
  return view.members.some((member) => normalEmail(member) === mine);
}

/** Which collection ids the person with this e-mail sees: a test over ids. */
export function collectionVisibility(view: RestrictedView | null, email: string | null | undefined): (collectionId: string) => boolean {
  if (!isRestricted(view, email)) return () => true;
  const visible = new Set(view!.collections);
  return (collectionId) => visible.has(collectionId);
}
