import { describe, expect, it } from 'vitest';
import { accountStatusDetail, EXTERNAL_TOKEN_DETAILS } from '@hdp/contract';
import { brandAuthPage } from './brand-auth-page';
import { SSO_REFUSAL_MESSAGES, ssoRefusalOf, ssoRefusedUrl } from './sso-refusals';

describe("the API's answer to a provider's token", () => {
  it.each([
    [{ status: 200 }, undefined],
    [{ status: 401, detail: EXTERNAL_TOKEN_DETAILS.noAccount }, 'SsoNoAccount'],
    [{ status: 401, detail: accountStatusDetail('DISABLED') }, 'SsoAccountDisabled'],
    [{ status: 401, detail: accountStatusDetail('INVITED') }, undefined],
    [{ status: 401, detail: `${EXTERNAL_TOKEN_DETAILS.weakAuthentication} (acr "pwd", required one of mfa).` }, 'SsoWeakAuthentication'],
    [{ status: 401, detail: 'The token is not valid here: its "aud" claim does not match.' }, 'SsoTokenRefused'],
    [{ status: 502 }, 'SsoUnavailable'],
  ])('%j refuses with %s', (answer, refusal) => {
    expect(ssoRefusalOf(answer)).toBe(refusal);
  });

  it('is explained on the sign-in page in place of the generic text', () => {
    const page = '<!DOCTYPE html><html><head><title>Sign In</title></head><body><div class="error"><p>Unable to sign in.</p></div></body></html>';
    const shown = brandAuthPage(page, undefined, 'SsoWeakAuthentication');
    expect(shown).toContain(SSO_REFUSAL_MESSAGES.SsoWeakAuthentication);
    expect(shown).not.toContain('Unable to sign in.');
    expect(ssoRefusedUrl('SsoNoAccount')).toBe('/api/auth/signin?error=SsoNoAccount');
  });
});
