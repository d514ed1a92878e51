/** Where the token waits while the person signs in with their identity provider (same tab only). */
export const INVITATION_TOKEN_KEY = 'hdp.invitation-token';

/**
 * The invitation token of the accept-invitation page. The link carries it in the fragment
 * (`#token=…`), which browsers never send to a server. It is kept in session storage (this tab
 * only) so it survives the round trip to an identity provider, and the fragment is removed from
 * the address bar and history.
 */
export function takeInvitationToken(win: Pick<Window, 'location' | 'history' | 'sessionStorage'> = window): string | null {
  const fragment = new URLSearchParams(win.location.hash.replace(/^#/, ''));
  const fromLink = fragment.get('token')?.trim();
  if (fromLink) {
    win.sessionStorage.setItem(INVITATION_TOKEN_KEY, fromLink);
    win.history.replaceState(win.history.state, '', win.location.pathname + win.location.search);
    return fromLink;
  }
  return win.sessionStorage.getItem(INVITATION_TOKEN_KEY);
}

/** Forgets the token once the invitation is accepted (it works only once anyway). */
export function forgetInvitationToken(storage: Pick<Storage, 'removeItem'> = window.sessionStorage): void {
  storage.removeItem(INVITATION_TOKEN_KEY);
}
