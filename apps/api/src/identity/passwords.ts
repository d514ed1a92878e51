import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt, a memory-hard function from Node's own crypto: no native add-on
 * to build. Cost N=2^15 by default (PASSWORD_HASH_COST), r=8 (32 MiB a hash); the parameters are
 * stored with each hash, so the cost can be raised later without breaking old hashes.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 };

/**
 * Sets the cost of new hashes (log2 of N) for this process, from the configuration at start-up.
 * The test suites lower it: they create hundreds of accounts, and each hash at the default cost
 * takes a tenth of a second or more on a small machine.
 */
export function configurePasswordHashing(cost: number): void {
  if (PARAMS.N === 2 ** cost) return;
  PARAMS.N = 2 ** cost;
  // The decoy must cost what a real check costs at the new setting.
  decoyHash = undefined;
}
const KEY_LENGTH = 32;

function scryptAsync(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

const maxmem = (N: number, r: number) => 128 * N * r * 2;

/** Hashes a password as `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEY_LENGTH, { ...PARAMS, maxmem: maxmem(PARAMS.N, PARAMS.r) });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash of a random password: verifying against it costs the same as a real check. */
let decoyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash in constant time. With no hash (unknown account) it
 * still does the work, so response times do not tell which accounts exist.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const hash = stored ?? (await (decoyHash ??= hashPassword(randomBytes(16).toString('hex'))));
  const [scheme, n, r, p, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: maxmem(Number(n), Number(r)),
  });
  return stored != null && timingSafeEqual(actual, expected);
}

/** A random password for generated accounts: 24 characters of base64url. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
