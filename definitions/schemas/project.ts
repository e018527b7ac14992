/** A project as `/api/organization/{org}/project…` answers it, and its restricted-view settings. */
import { Type, type Static } from '@sinclair/typebox';
import type { SchemaField } from '../field-types/types.ts';
import { restrictedViewSchema, type RestrictedView as RestrictedViewShape } from '../restricted-view.ts';
import { Nullable } from './wire.ts';

/** A collection as the project lists it (the content model's view adds more). */
export const ProjectCollection = Type.Object({
  id: Type.String(),
  name: Type.String(),
  schema: Type.Optional(Type.Array(Type.Unsafe<SchemaField>({}))),
  singleItem: Type.Boolean(),
  rtlDirection: Type.Boolean(),
});
export type ProjectCollection = Static<typeof ProjectCollection>;

export const Project = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    organizationID: Type.String(),
    createdDate: Type.String(),
    collections: Type.Array(ProjectCollection),
    webhooks: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
    files: Type.Array(Type.Object({ fileName: Type.String() })),
    settings: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'Project' },
);
export type Project = Static<typeof Project>;

/** settings.restrictedView (definitions/restricted-view.ts): null turns it off. */
export const RestrictedView = Type.Unsafe<RestrictedViewShape>({
  ...restrictedViewSchema,
  description: 'members (e-mails of the member list) who see only these collections (ids) of the project',
});

/** GET …/restricted-view (admin): the setting and every collection of the project to choose from. */
export const RestrictedViewSettings = Type.Object({
  restrictedView: Nullable(RestrictedView),
  collections: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
});
export type RestrictedViewSettings = Static<typeof RestrictedViewSettings>;
