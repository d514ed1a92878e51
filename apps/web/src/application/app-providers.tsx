import { useEffect, useState, type ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import enGB from 'antd/locale/en_GB';
import { Provider as ReduxProvider } from 'react-redux';
import { SessionProvider } from 'next-auth/react';
import type { Session } from 'next-auth';
import { TOOLTIP_DELAY_SECONDS } from '@/config/constants';
import { SESSION_REFETCH_SECONDS } from '@/lib/auth/session-tokens';
import { AuthSync } from '@/features/auth/components/auth-sync';
import dynamic from 'next/dynamic';
import { makeStore } from './store';
import { addInitialQueries, type InitialQueryEntry } from '@/lib/api/server-queries';
import { rememberBrowserTimeZone } from '@/lib/dates/time-zone';
import { RUNTIME_THEME } from './theme';

// Toasts are only needed once something goes wrong or succeeds: their code loads after the page.
// Toasts raised before it arrives wait in the notifier's queue.
const NotificationBridge = dynamic(() => import('@/features/shell/components/notification-bridge'), { ssr: false });

/**
 * The page's CSP nonce, where Next.js puts it for its own style elements. antd writes the styles
 * of components first shown after the page loaded into new style elements, which need it too.
 */
function pageNonce(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.querySelector('noscript[data-n-css]')?.getAttribute('data-n-css') || undefined;
}
// Product analytics and error reporting exist only in builds that configure one of them: these
// variables are fixed at build time, so without them the branch (and its chunk) is dropped whole.
const ThirdPartyServices =
  process.env.NEXT_PUBLIC_POSTHOG_KEY || process.env.NEXT_PUBLIC_SENTRY_DSN
    ? dynamic(() => import('./third-party-services'), { ssr: false })
    : () => null;

/** Session, store, theme and toasts: everything every page sits in. */
export function AppProviders({ session, initialQueries, children }: { session?: Session | null; initialQueries?: InitialQueryEntry[]; children: ReactNode }) {
  // The session's id token from the start, so the page's queries are ready to go when it mounts;
  // the answers the server rendered the page with are already in the cache.
  const [store] = useState(() => {
    const created = makeStore({ auth: { idToken: session?.idToken ?? null } });
    addInitialQueries(created, initialQueries);
    return created;
  });
  const [csp] = useState(() => ({ nonce: pageNonce() }));
  // Pages arrive rendered by the server, shell included, and only respond once React has taken
  // them over: this mark says when, for browser tests and monitoring that must not click too early.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
    rememberBrowserTimeZone();
  }, []);
  return (
    <SessionProvider session={session} refetchInterval={SESSION_REFETCH_SECONDS} refetchOnWindowFocus>
      <ReduxProvider store={store}>
        <ConfigProvider theme={RUNTIME_THEME} locale={enGB} tooltip={{ mouseEnterDelay: TOOLTIP_DELAY_SECONDS }} csp={csp}>
          <NotificationBridge />
          <AuthSync />
          <ThirdPartyServices />
          {children}
        </ConfigProvider>
      </ReduxProvider>
    </SessionProvider>
  );
}
