/** The OAuth token endpoint's answer (`POST /auth/token`). */
import { Type, type Static } from '@sinclair/typebox';

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  expires_in: Type.Integer(),
  token_type: Type.Literal('Bearer'),
});
export type TokenResponse = Static<typeof TokenResponse>;
