/**
 * The wire shapes of a project's Studio (`/api/organization/{org}/project/{proj}/studio/…` and
 * `GET /api/public/openapi.json`; docs/studio.md), shared by the server and the console.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ApiToken } from './api-token.ts';

/**
 * `POST studio/tokens`: a temporary token for the workbench, either read-only (`preview`) or with
 * the rights of one of the project's tokens (`from`), never beyond the member's own rights.
 */
export const StudioTokenInput = Type.Union([
  Type.Object({ preview: Type.Literal(true) }, { additionalProperties: false }),
  Type.Object({ from: Type.String({ pattern: '^[0-9a-f]{24}$' }) }, { additionalProperties: false }),
]);
export type StudioTokenInput = Static<typeof StudioTokenInput>;

/** A minted Studio token: its secret, when it ends, and the rights it carries. */
export const StudioToken = Type.Composite([ApiToken, Type.Object({ jwtToken: Type.String(), expiresDate: Type.String({ description: 'ISO 8601' }) })]);
export type StudioToken = Static<typeof StudioToken>;
