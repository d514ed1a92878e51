import { describe, expect, it } from 'vitest';
import { brandAuthPage, NO_SECOND_FACTOR_NOTE } from './brand-auth-page';

const PAGE =
  '<!DOCTYPE html><html lang="en"><head><style>x</style><title>Sign In</title></head><body><div class="page"><div class="signin"><div class="card"><img src="/logo.svg" alt="Logo" class="logo"/><form></form></div></div></div></body></html>';

describe('brandAuthPage', () => {
  it('adds the product heading, title and styles to the built-in sign-in page', () => {
    const html = brandAuthPage(PAGE);
    expect(html).toContain('<title>Sign in · Health Data Platform</title>');
    expect(html).toContain('class="logo"/><h1 class="hdp-title">Sign in to Health Data Platform</h1>');
    expect(html).toMatch(/<style data-hdp-brand>[\s\S]*<\/style><\/head>/);
  });

  it("puts the answer's CSP nonce on next-auth's style element and ours, and nothing odd", () => {
    const html = brandAuthPage(PAGE, 'bm9uY2UtMTIzNDU2Nzg5MA==');
    expect(html.match(/<style nonce="bm9uY2UtMTIzNDU2Nzg5MA==">x<\/style>/g)).toHaveLength(1);
    expect(html).toContain('<style nonce="bm9uY2UtMTIzNDU2Nzg5MA==" data-hdp-brand>');
    expect(brandAuthPage(PAGE, '"><script>')).not.toContain('nonce=');
  });

  it('says why a session ended instead of the generic text, for the reasons it knows only', () => {
    const withError = PAGE.replace('<form>', '<div class="error"><p>Unable to sign in.</p></div><form>');
    expect(brandAuthPage(withError, undefined, 'AccountDisabled')).toContain('<div class="error" role="alert"><p>Your account has been disabled, so you were signed out.');
    expect(brandAuthPage(withError, undefined, 'SessionRevoked')).toContain('<p>Your session was ended elsewhere:');
    expect(brandAuthPage(withError, undefined, 'SomethingElse')).toContain('<div class="error"><p>Unable to sign in.</p></div>');
  });

  it('says so on a platform that runs without a second factor, and only there', () => {
    expect(brandAuthPage(PAGE, undefined, null, { mfaRequired: false })).toContain(`<p class="hdp-auth-note" role="note">${NO_SECOND_FACTOR_NOTE}</p>`);
    expect(brandAuthPage(PAGE, undefined, null, { mfaRequired: true })).not.toContain('hdp-auth-note"');
  });

  it('leaves JSON and already branded pages alone', () => {
    expect(brandAuthPage('{"csrfToken":"x"}')).toBe('{"csrfToken":"x"}');
    const once = brandAuthPage(PAGE);
    expect(brandAuthPage(once)).toBe(once);
  });
});
