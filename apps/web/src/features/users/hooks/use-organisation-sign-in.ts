import { useEffect, useState } from 'react';
import { getProviders } from 'next-auth/react';

/** The next-auth provider of sign-in with an organisation (OIDC). */
export const OIDC_PROVIDER_ID = 'oidc';

/**
 * Whether sign-in with an organisation is set up on this web app (its providers name OIDC):
 * undefined while asking, or when not `needed`. Unknown (the call failed) reads as available, so
 * nothing is refused on a guess.
 */
export function useOrganisationSignIn(needed: boolean): boolean | undefined {
  const [available, setAvailable] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    if (!needed) return;
    let current = true;
    getProviders()
      .then((providers) => current && setAvailable(Boolean(providers?.[OIDC_PROVIDER_ID])))
      .catch(() => current && setAvailable(true));
    return () => {
      current = false;
    };
  }, [needed]);
  return available;
}
