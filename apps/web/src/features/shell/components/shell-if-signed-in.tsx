import type { ReactNode } from 'react';
import { useSession } from 'next-auth/react';
import { FullPageSpinner } from '@/components/full-page-spinner';
import { AppShell } from './app-shell';

/**
 * A page anyone may see (not found, server error): inside the shell for a signed-in user, on its
 * own for anyone else. Nothing but the page itself is shown before the session is known.
 */
export function ShellIfSignedIn({ children }: { children: ReactNode }) {
  const { data: session, status } = useSession();
  if (status === 'loading') return <FullPageSpinner label="Checking your session" />;
  if (status === 'authenticated' && session.idToken && !session.error) return <AppShell>{children}</AppShell>;
  return <main className="hdp-standalone">{children}</main>;
}
