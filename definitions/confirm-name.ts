/**
 * Deleting an organization or a project needs its name typed exactly: same case, no
 * trimming, so a near miss never deletes.
 */
export function isExactName(typed: string, expected: string): boolean {
  return typed === expected;
}
