import type { ReactNode } from 'react';
import { useSession } from 'next-auth/react';
import { FullPageSpinner } from '@/components/full-page-spinner';

/**
 * Renders its children only with a live session. While the session loads a spinner shows; without
 * one, next-auth sends the browser to the sign-in page with error=SessionRequired and the current
 * address as callbackUrl. Protected content never renders before the session is known.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const { data: session, status } = useSession({ required: true });
  if (status !== 'authenticated' || session.error || !session.idToken) return <FullPageSpinner label="Checking your session" />;
  return <>{children}</>;
}
