/** Where the token waits while the person signs in with their identity provider (same tab only). */
export const INVITATION_TOKEN_KEY = 'hdp.invitation-token';
/** Set (to the token) while the invited person is away signing in with their identity provider. */
export const EXTERNAL_SIGN_IN_KEY = 'hdp.invitation-external-sign-in';

/**
 * The invitation token of the accept-invitation page. The link carries it in the fragment
 * (`#token=…`), which browsers never send to a server. It is kept in session storage (this tab
 * only) so it survives the round trip to an identity provider, and the fragment is removed from
 * the address bar and history. The kept token is taken again only on the way back from the
 * identity provider: a link opened without a token says it is incomplete, and never shows the
 * invitation last opened in this tab (which may be someone else's, on a shared computer).
 */
export function takeInvitationToken(win: Pick<Window, 'location' | 'history' | 'sessionStorage'> = window): string | null {
  const fragment = new URLSearchParams(win.location.hash.replace(/^#/, ''));
  const fromLink = fragment.get('token')?.trim();
  if (fromLink) {
    win.sessionStorage.setItem(INVITATION_TOKEN_KEY, fromLink);
    win.history.replaceState(win.history.state, '', win.location.pathname + win.location.search);
    return fromLink;
  }
  const kept = win.sessionStorage.getItem(INVITATION_TOKEN_KEY);
  return kept && win.sessionStorage.getItem(EXTERNAL_SIGN_IN_KEY) === kept ? kept : null;
}

/** Forgets the token once the invitation is accepted (it works only once anyway). */
export function forgetInvitationToken(storage: Pick<Storage, 'removeItem'> = window.sessionStorage): void {
  storage.removeItem(INVITATION_TOKEN_KEY);
}
