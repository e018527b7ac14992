/** A page's title, description and image for the Link editor's card (`POST /api/generatePreview`). */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './wire.ts';

export const LinkPreview = Type.Object({
  title: Nullable(Type.String()),
  description: Nullable(Type.String()),
  image: Nullable(Type.String()),
});
export type LinkPreview = Static<typeof LinkPreview>;
