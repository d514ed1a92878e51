/**
 * Where the browser sends API calls. By default the page's own origin: Next.js forwards
 * `/api/v1/*` to the API (see `pages/api/v1/[...path].ts`), so one address serves both and no
 * CORS is needed. `NEXT_PUBLIC_API_BASE_URL` (fixed at build time) points the browser straight
 * at an API on another origin instead.
 */
export function apiBaseUrl(env: { NEXT_PUBLIC_API_BASE_URL?: string } = { NEXT_PUBLIC_API_BASE_URL: process.env.NEXT_PUBLIC_API_BASE_URL }): string {
  const configured = env.NEXT_PUBLIC_API_BASE_URL?.trim();
  return configured ? configured.replace(/\/+$/, '') : '';
}

/** The help centre is reached through this path, which redirects to HELP_CENTRE_URL at run time. */
export const HELP_CENTRE_PATH = '/api/help-centre';

