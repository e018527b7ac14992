/**
 * Tokens whose signature and fixed claims were checked, with what they said: an Ed25519 check
 * costs more than the rest of a small request (about 0.2 ms here), and a client sends the same
 * token call after call. Only what cannot change for the same string is kept — the signature and
 * the claims in it; expiry is checked again on every call, and everything stored (sessions, token
 * rows, rights) is read on every call from its own cache.
 *
 * A token with a not-before claim is never kept (its validity does not end at `exp` alone). At most
 * `maxEntries` are kept; the oldest goes first.
 */
export interface VerifiedClaims {
  /** The token's `exp`, in whole seconds; undefined: it does not expire. */
  exp: number | undefined;
}

const nowS = () => Math.floor(Date.now() / 1000);

export class VerifiedTokens<T extends VerifiedClaims> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly maxEntries = 10_000) {}

  /** What `token` said when it was checked; 'expired' (and forgotten) once past its `exp`, as jose decides it (exp <= now). */
  get(token: string): T | 'expired' | undefined {
    const known = this.entries.get(token);
    if (!known) return undefined;
    if (known.exp !== undefined && known.exp <= nowS()) {
      this.entries.delete(token);
      return 'expired';
    }
    return known;
  }

  /** Keeps what a checked token said; `nbf`: its not-before claim (such tokens are not kept). */
  remember(token: string, claims: T, nbf: unknown): void {
    if (nbf !== undefined) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, claims);
  }
}
