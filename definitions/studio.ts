/**
 * Studio's limits (docs/studio.md "Tokens in the workbench"): how long a Studio token lives and how
 * many a member keeps alive per project (minting one more ends the oldest).
 */
export const studioTokens = {
  /** A Studio token's lifetime. */
  lifetimeMinutes: 30,
  /** Studio tokens alive per member and project. */
  perMemberMax: 5,
  /** The name such a token carries (never shown in the project's token list). */
  previewName: 'Studio preview',
  fromName: 'Studio',
} as const;
