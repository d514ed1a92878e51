import { randomUUID } from 'node:crypto';
import { desc, isNull } from 'drizzle-orm';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { LIMITS } from '@hdp/contract';
import { appendAuditEntry } from '../audit/audit-trail';
import type { Database, DbOrTx } from '../db/database';
import { signingKeys } from '../db/schema';

export const SIGNING_ALGORITHM = 'ES256';

export interface ActiveSigningKey {
  kid: string;
  privateKey: CryptoKey;
}

/**
 * The embedded issuer's signing keys, kept in the database. One key signs; keys retired by a
 * rotation stay published in the JWKS until every token they signed has expired.
 */
export class SigningKeyStore {
  private active: ActiveSigningKey | undefined;
  private published: JWK[] = [];
  private loadedAt = 0;

  constructor(private readonly db: Database) {}

  /** Loads the keys, creating the first one on first start. */
  async load(): Promise<void> {
    let rows = await this.db.select().from(signingKeys).orderBy(desc(signingKeys.createdAt));
    if (!rows.some((row) => row.retiredAt === null)) {
      await this.db.transaction(async (tx) => {
        const kid = await createSigningKey(tx);
        await appendAuditEntry(tx, { actorEmail: 'system' }, {
          eventType: 'SIGNING_KEY_CREATED',
          outcome: 'SUCCESS',
          message: `Signing key ${kid} created`,
          resourceType: 'signing_key',
          resourceId: kid,
        });
      });
      rows = await this.db.select().from(signingKeys).orderBy(desc(signingKeys.createdAt));
    }
    const current = rows.find((row) => row.retiredAt === null)!;
    const publishUntil = Date.now() - LIMITS.idTokenTtlSeconds * 1000 - 60_000;
    this.active = {
      kid: current.kid,
      privateKey: (await importJWK(current.privateJwk as JWK, SIGNING_ALGORITHM)) as CryptoKey,
    };
    this.published = rows
      .filter((row) => row.retiredAt === null || row.retiredAt.getTime() > publishUntil)
      .map((row) => ({ ...(row.publicJwk as JWK), kid: row.kid, alg: row.algorithm, use: 'sig' }));
    this.loadedAt = Date.now();
  }

  /** The key that signs new tokens. */
  signingKey(): ActiveSigningKey {
    if (!this.active) throw new Error('Signing keys are not loaded');
    return this.active;
  }

  /** The public keys, as served at /.well-known/jwks.json. */
  jwks(): { keys: JWK[] } {
    return { keys: this.published };
  }

  /** Reloads when a token names a key we do not know (a rotation by another process), at most every 10 s. */
  async reloadIfStale(): Promise<boolean> {
    if (Date.now() - this.loadedAt < 10_000) return false;
    await this.load();
    return true;
  }
}

/** Generates a new ES256 key and makes it the signing key; older keys are retired. */
export async function createSigningKey(tx: DbOrTx): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  const kid = randomUUID();
  await tx.update(signingKeys).set({ retiredAt: new Date() }).where(isNull(signingKeys.retiredAt));
  await tx.insert(signingKeys).values({
    kid,
    algorithm: SIGNING_ALGORITHM,
    publicJwk: (await exportJWK(publicKey)) as Record<string, unknown>,
    privateJwk: (await exportJWK(privateKey)) as Record<string, unknown>,
  });
  return kid;
}
