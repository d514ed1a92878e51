/** Server-side settings of the web app, read from the environment at run time. */
export interface WebServerEnv {
  /** Where the Next.js server reaches the API (never exposed to the browser). */
  apiInternalUrl: string;
  nextAuthSecret?: string;
  /** NEXTAUTH_URL: the web app's public address. */
  publicUrl?: string;
  /** Shared with the API: signs the browser's address on the web server's calls (CLIENT_ADDRESS_SECRET). */
  clientAddressSecret?: string;
  /** Behind a reverse proxy: the browser's address is the last X-Forwarded-For entry (WEB_TRUST_PROXY). */
  trustProxy: boolean;
  helpCentreUrl: string;
  /** MFA_REQUIRED as the API reads it (default true): the sign-in page says when it is off. */
  mfaRequired: boolean;
  oidc?: { issuer: string; clientId: string; clientSecret?: string; name: string; scope: string };
}

export const DEFAULT_API_INTERNAL_URL = 'http://127.0.0.1:8000';
export const DEFAULT_HELP_CENTRE_URL = 'https://github.com/';

/** Reads the server environment; OIDC is on only when OIDC_ISSUER and OIDC_CLIENT_ID are both set. */
export function readServerEnv(env: NodeJS.ProcessEnv = process.env): WebServerEnv {
  const issuer = env.OIDC_ISSUER?.trim();
  const clientId = env.OIDC_CLIENT_ID?.trim();
  return {
    apiInternalUrl: (env.API_INTERNAL_URL?.trim() || DEFAULT_API_INTERNAL_URL).replace(/\/+$/, ''),
    nextAuthSecret: env.NEXTAUTH_SECRET || undefined,
    publicUrl: env.NEXTAUTH_URL?.trim() || undefined,
    clientAddressSecret: env.CLIENT_ADDRESS_SECRET || undefined,
    trustProxy: ['true', '1'].includes(env.WEB_TRUST_PROXY?.trim() ?? ''),
    helpCentreUrl: env.HELP_CENTRE_URL?.trim() || DEFAULT_HELP_CENTRE_URL,
    mfaRequired: !['false', '0'].includes(env.MFA_REQUIRED?.trim().toLowerCase() ?? ''),
    oidc:
      issuer && clientId
        ? {
            issuer: issuer.replace(/\/+$/, ''),
            clientId,
            clientSecret: env.OIDC_CLIENT_SECRET || undefined,
            name: env.OIDC_NAME?.trim() || 'Single sign-on',
            scope: env.OIDC_SCOPE?.trim() || 'openid email profile offline_access',
          }
        : undefined,
  };
}

/** The message the server stops with when it runs in production without a session secret. */
export const MISSING_SECRET_MESSAGE =
  'NEXTAUTH_SECRET is not set. The web app signs and encrypts sessions with it and will not run in production without it. ' +
  'Set NEXTAUTH_SECRET to a long random value (for example `openssl rand -base64 32`).';

/** Throws with a clear message when production runs without NEXTAUTH_SECRET. */
export function assertSessionSecret(env: NodeJS.ProcessEnv = process.env): void {
  if (env.NODE_ENV === 'production' && !env.NEXTAUTH_SECRET) throw new Error(MISSING_SECRET_MESSAGE);
}
