import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * The browser's address, as the web server tells it to the API. The API sees every request the web
 * server makes (sign-in, the `/api/v1/*` forwarder) coming from the web server's own address; this
 * header carries the real one, so that sign-in throttling and the audit trail see each browser.
 * The API trusts it only with a valid signature made with the secret both processes share
 * (CLIENT_ADDRESS_SECRET): from anyone else it is ignored.
 */
export const CLIENT_ADDRESS_HEADER = 'x-hdp-client-address';
/** `<unix seconds>.<base64url HMAC-SHA256 of "<unix seconds>\n<address>">`. */
export const CLIENT_ADDRESS_SIGNATURE_HEADER = 'x-hdp-client-address-signature';
/** A signature older (or further in the future) than this is refused: a leaked one soon stops working. */
export const CLIENT_ADDRESS_MAX_SKEW_SECONDS = 60;
/** The shortest secret accepted: 32 bytes of base64url. */
export const CLIENT_ADDRESS_SECRET_MIN_LENGTH = 32;

const mac = (secret: string, seconds: number, address: string) =>
  createHmac('sha256', secret).update(`${seconds}\n${address}`).digest();

/** Folds an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) to its IPv4 form, so one browser is one bucket. */
export function normaliseAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** The two headers that tell the API this browser address, signed now. */
export function signClientAddress(secret: string, address: string, now = Date.now()): Record<string, string> {
  const seconds = Math.floor(now / 1000);
  return {
    [CLIENT_ADDRESS_HEADER]: address,
    [CLIENT_ADDRESS_SIGNATURE_HEADER]: `${seconds}.${mac(secret, seconds, address).toString('base64url')}`,
  };
}

/** The address the headers carry when they are well-formed, recent and signed with `secret`; otherwise undefined. */
export function verifyClientAddress(
  secret: string,
  address: string | string[] | undefined,
  signature: string | string[] | undefined,
  now = Date.now(),
): string | undefined {
  if (typeof address !== 'string' || typeof signature !== 'string' || isIP(address) === 0) return undefined;
  const match = /^(\d{1,12})\.([\w-]{43})$/.exec(signature);
  if (!match) return undefined;
  const seconds = Number(match[1]);
  if (Math.abs(now / 1000 - seconds) > CLIENT_ADDRESS_MAX_SKEW_SECONDS) return undefined;
  const given = Buffer.from(match[2]!, 'base64url');
  const expected = mac(secret, seconds, address);
  return given.length === expected.length && timingSafeEqual(given, expected) ? normaliseAddress(address) : undefined;
}
