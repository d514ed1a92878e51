import type { Database } from '../db/database';
import { userRepository, type UserRow } from '../users/user-repository';
import type { VerifiedIdentity } from './id-tokens';

/**
 * How long a looked-up user is trusted without asking the database again. Changes made through
 * this process invalidate at once; with several API processes, a change elsewhere (say, disabling
 * a user) takes effect here within this time.
 */
const PRINCIPAL_TTL_MS = 5_000;
const MAX_CACHED = 10_000;

/** Turns a verified identity into the platform user it speaks for. */
export class PrincipalDirectory {
  private readonly byId = new Map<string, { user: UserRow; loadedAtMs: number }>();
  private readonly idByEmail = new Map<string, string>();

  constructor(private readonly db: Database) {}

  /** The user, when loaded within the last PRINCIPAL_TTL_MS; undefined when it must be looked up. */
  cached(identity: VerifiedIdentity): UserRow | undefined {
    const id = identity.issuer === 'embedded' ? identity.userId : this.idByEmail.get(identity.email);
    const cached = id === undefined ? undefined : this.byId.get(id);
    return cached && Date.now() - cached.loadedAtMs < PRINCIPAL_TTL_MS ? cached.user : undefined;
  }

  async resolve(identity: VerifiedIdentity): Promise<UserRow | undefined> {
    const cached = this.cached(identity);
    if (cached) return cached;
    const user =
      identity.issuer === 'embedded'
        ? await userRepository.findById(this.db, identity.userId)
        : await userRepository.findByEmail(this.db, identity.email);
    // An external token speaks only for an externally sourced user: a local account's
    // password is not bypassed by an outside issuer asserting the same email.
    if (!user || (identity.issuer === 'external' && user.userSource !== 'EXTERNAL')) return undefined;
    if (this.byId.size >= MAX_CACHED) this.byId.clear();
    this.byId.set(user.id, { user, loadedAtMs: Date.now() });
    if (identity.issuer === 'external') this.idByEmail.set(identity.email, user.id);
    return user;
  }

  /** Forgets a user, after any change to them, so the next request sees the change. */
  invalidate(userId: string): void {
    this.byId.delete(userId);
  }
}
