/**
 * The security headers of the web app's pages. The page scripts hold the API bearer token (the
 * session hands it to them), so one injected script would be a stolen token: the policy lets only
 * the scripts this server rendered run, and connects only to this origin and the API.
 */

/** Request header the proxy puts the page's nonce in, for `_document` (and the sign-in page) to read. */
export const NONCE_HEADER = 'x-nonce';

/** Headers that are the same on every answer, static files included (set in next.config.ts). */
export const STATIC_SECURITY_HEADERS: ReadonlyArray<{ key: string; value: string }> = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  // For browsers without CSP frame-ancestors.
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'no-referrer' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), hid=(), midi=(), display-capture=(), browsing-topics=()' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  { key: 'Cross-Origin-Resource-Policy', value: 'same-origin' },
];

export interface PolicySettings {
  nonce: string;
  /** `next dev`: React's development build evaluates strings, and dev CSS arrives as style tags without a nonce. */
  development: boolean;
  /** NEXT_PUBLIC_API_BASE_URL: the browser calls the API there instead of through this origin. */
  apiBaseUrl?: string;
  /** OIDC_ISSUER: the sign-in form's redirect to the identity provider must be allowed. */
  oidcIssuer?: string;
  /**
   * NOTEBOOK_BASE_URL (default: `notebooks.localhost` on the API's port): the open flow posts a
   * notebook's ticket to that notebook's own host, `<id>.<host>`.
   */
  notebookBaseUrl?: string;
}

const originOf = (url: string | undefined): string | undefined => {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The Content-Security-Policy of one page. Scripts: only those carrying this answer's nonce, and
 * what they load ('strict-dynamic': Next.js loads page chunks by script elements). Style
 * elements: this origin's style sheets and nonce-carrying ones (antd writes its CSS-in-JS into
 * style elements with the nonce, server- and client-side). Style attributes are allowed
 * ('unsafe-inline' in style-src-attr only): antd and React's server rendering put layout in them,
 * and an attribute can neither run script nor select on other elements' content, which is what
 * CSS exfiltration needs.
 */
export function contentSecurityPolicy({ nonce, development, apiBaseUrl, oidcIssuer, notebookBaseUrl }: PolicySettings): string {
  const api = originOf(apiBaseUrl);
  const issuer = originOf(oidcIssuer);
  const notebooks = notebookHosts(notebookBaseUrl);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(development ? ["'unsafe-eval'"] : [])],
    'style-src': development ? ["'self'", "'unsafe-inline'"] : ["'self'", `'nonce-${nonce}'`],
    'style-src-attr': ["'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...(api ? [api] : []), ...(development ? ['ws:'] : [])],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'", ...(issuer ? [issuer] : []), ...(notebooks ? [notebooks] : [])],
    'frame-ancestors': ["'none'"],
    'frame-src': ["'none'"],
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/** The notebooks' hosts as a CSP source: `https://*.notebooks.example.org` (with the port, if any). */
export function notebookHosts(notebookBaseUrl: string | undefined): string | undefined {
  try {
    if (!notebookBaseUrl) return undefined;
    const base = new URL(notebookBaseUrl);
    return `${base.protocol}//*.${base.host}`;
  } catch {
    return undefined;
  }
}

/**
 * The notebooks' base URL the API uses: NOTEBOOK_BASE_URL, else `notebooks.localhost` with the
 * scheme and port of the API's URL (as the API derives its own default).
 */
export function notebookBaseUrl(env: { NOTEBOOK_BASE_URL?: string; API_INTERNAL_URL?: string; NEXT_PUBLIC_API_BASE_URL?: string }): string {
  if (env.NOTEBOOK_BASE_URL) return env.NOTEBOOK_BASE_URL;
  const api = new URL(env.NEXT_PUBLIC_API_BASE_URL || env.API_INTERNAL_URL || 'http://127.0.0.1:8000');
  return `${api.protocol}//notebooks.localhost${api.port ? `:${api.port}` : ''}`;
}

/** HSTS, only where the public address is HTTPS (RFC 6797 forbids it over plain HTTP). */
export function transportSecurityHeader(publicUrl: string | undefined): string | undefined {
  return publicUrl?.startsWith('https://') ? 'max-age=31536000; includeSubDomains' : undefined;
}

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
