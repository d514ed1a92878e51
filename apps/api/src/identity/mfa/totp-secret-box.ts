import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Authenticator-app secrets at rest: AES-256-GCM (node:crypto) under a key that is not in the
 * database, so a copy of the database (a dump, a backup, a read-only leak) yields no secret a
 * code could be computed from. The stored form names its version (`v1:<iv>:<ciphertext>:<tag>`,
 * base64url), so a later scheme can be told apart; a value without it is a plaintext secret
 * stored before encryption, still read, and sealed when next used or at start-up.
 *
 * The person's id is bound in as associated data: a sealed secret copied onto another person's
 * row does not open there.
 */
const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
/** The key file in DATA_DIR when MFA_SECRET_KEY is not set. */
export const TOTP_KEY_FILE = 'mfa-secret.key';

export class TotpSecretBox {
  private constructor(private readonly key: Buffer) {}

  /** A box whose AES key is derived (HKDF-SHA256) from the configured key material. */
  static fromKeyMaterial(material: string): TotpSecretBox {
    return new TotpSecretBox(Buffer.from(hkdfSync('sha256', material, 'hdp/totp-secret', `totp secret at rest ${VERSION}`, 32)));
  }

  /**
   * The box of this deployment: MFA_SECRET_KEY when set; otherwise a random key kept in
   * DATA_DIR/mfa-secret.key (created on first start, readable by the API's user only); for an
   * in-memory database (tests), a random key for the process.
   */
  static forDeployment(configured: string | undefined, dataDir: string | null): TotpSecretBox {
    if (configured) return TotpSecretBox.fromKeyMaterial(configured);
    if (dataDir === null) return TotpSecretBox.fromKeyMaterial(randomBytes(32).toString('base64url'));
    const file = path.join(dataDir, TOTP_KEY_FILE);
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      // 'wx': another API process starting at the same moment keeps its own write, and we read it.
      fs.writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return TotpSecretBox.fromKeyMaterial(fs.readFileSync(file, 'utf8').trim());
  }

  /** Whether a stored value is sealed (else a plaintext secret from before encryption). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(`${VERSION}:`);
  }

  seal(secret: string, userId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv);
    cipher.setAAD(this.associatedData(userId));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [VERSION, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join(':');
  }

  /** The secret; throws when the value was sealed under another key or for another person. */
  open(stored: string, userId: string): string {
    if (!TotpSecretBox.isSealed(stored)) return stored;
    const [, iv, ciphertext, tag] = stored.split(':');
    if (!iv || !ciphertext || !tag) throw new Error('A stored authenticator-app secret is malformed.');
    const decipher = createDecipheriv(ALGORITHM, this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(this.associatedData(userId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** The secret, or undefined when it does not open here (another key, another person, tampered). */
  tryOpen(stored: string, userId: string): string | undefined {
    try {
      return this.open(stored, userId);
    } catch {
      return undefined;
    }
  }

  private associatedData(userId: string): Buffer {
    return Buffer.from(`${VERSION}:${userId.toLowerCase()}`, 'utf8');
  }
}
