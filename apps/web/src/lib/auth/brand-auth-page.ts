import { BRAND } from '@/config/brand';
import { isSessionEndedReason, SESSION_ENDED_MESSAGES } from './session-ended';
import { isSsoRefusal, SSO_REFUSAL_MESSAGES } from './sso-refusals';

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

/** Styles that make next-auth's built-in pages look like the product. */
const AUTH_PAGE_STYLE = `<style data-hdp-brand>
body{font-family:${FONT};background:#f5f7fa}
.hdp-title{font-size:22px;font-weight:600;text-align:center;margin:0 0 20px;color:rgba(0,0,0,.88)}
.signin .card{box-shadow:0 1px 4px rgba(0,0,0,.08);border-radius:8px}
.signin input{font-family:inherit}
.signin button[type=submit]{background:${BRAND.primaryColor};color:#fff;border:none;font-family:inherit;font-weight:500}
.signin button[type=submit]:hover{background:#093f57}
.hdp-auth-note{max-width:320px;margin:0 auto 16px;padding:8px 12px;border-radius:6px;background:#fffbe6;border:1px solid #ffe58f;color:rgba(0,0,0,.88);font-size:14px;text-align:left}
</style>`;

/** Said on the sign-in page of a platform that runs without a second factor (MFA_REQUIRED=false). */
export const NO_SECOND_FACTOR_NOTE =
  'This platform runs without a second factor (MFA_REQUIRED=false), as a scripted demonstration or test platform does: a password alone signs in unless you have enrolled a passkey or authenticator app.';

/**
 * Brands the HTML of next-auth's built-in sign-in page: the product's name as its heading, the
 * product's font and button colours. Its style elements (next-auth's and ours) get the answer's
 * CSP nonce. With the `error` of a session that ended (disabled, revoked, expired), the page says
 * why instead of next-auth's generic text. On a platform without a second factor it says so.
 * Other bodies pass through unchanged.
 */
export function brandAuthPage(html: string, nonce?: string, error?: string | null, options: { mfaRequired?: boolean } = {}): string {
  if (!html.startsWith('<!DOCTYPE html>') || html.includes('data-hdp-brand')) return html;
  const message = isSessionEndedReason(error) ? SESSION_ENDED_MESSAGES[error] : isSsoRefusal(error) ? SSO_REFUSAL_MESSAGES[error] : undefined;
  const explained = message ? html.replace(/<div class="error"><p>[^<]*<\/p><\/div>/, `<div class="error" role="alert"><p>${message}</p></div>`) : html;
  return explained
    .replace('</head>', `${AUTH_PAGE_STYLE}</head>`)
    .replace(/<style(?=[\s>])/g, nonce && /^[\w+/=]+$/.test(nonce) ? `<style nonce="${nonce}"` : '<style')
    .replace('<title>Sign In</title>', `<title>Sign in · ${BRAND.name}</title>`)
    .replace(
      /(<img [^>]*class="logo"[^>]*\/?>)/,
      `$1<h1 class="hdp-title">Sign in to ${BRAND.name}</h1>${options.mfaRequired === false ? `<p class="hdp-auth-note" role="note">${NO_SECOND_FACTOR_NOTE}</p>` : ''}`,
    );
}
