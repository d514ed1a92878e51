// First: style elements created while the modules below load need the page's nonce already.
import '@/lib/security/style-nonce';
import '@hdp/contract/jitless';
import NextApp, { type AppContext, type AppProps } from 'next/app';
import Head from 'next/head';
import type { Session } from 'next-auth';
import { AppProviders } from '@/app/app-providers';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { RequireSession } from '@/features/auth/components/require-session';
import { AppShell } from '@/features/shell/components/app-shell';
import { ShellIfSignedIn } from '@/features/shell/components/shell-if-signed-in';
import { RouteChangeSpinner } from '@/features/shell/components/route-change-spinner';
import '@/app/generated/antd.css';
import '@/app/global.css';

/** Every page: providers, the route-change spinner, and (unless the page is public) session and shell. */
export default function App({ Component, pageProps: { session, ...pageProps } }: AppProps<{ session?: Session | null }>) {
  const access = (Component as AppPage).access ?? {};
  const page = <Component {...pageProps} />;
  return (
    <AppProviders session={session}>
      <Head>
        <title>{BRAND.name}</title>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
      </Head>
      <RouteChangeSpinner />
      {access === 'public' ? (
        page
      ) : access === 'shell-if-signed-in' ? (
        <ShellIfSignedIn>{page}</ShellIfSignedIn>
      ) : (
        <RequireSession>
          <AppShell permission={access.permission}>{page}</AppShell>
        </RequireSession>
      )}
    </AppProviders>
  );
}

/**
 * Every page is rendered per request, never pre-rendered at build time: its HTML must carry the
 * fresh nonce the Content-Security-Policy of that answer names (see `proxy.ts`).
 */
App.getInitialProps = (context: AppContext) => NextApp.getInitialProps(context);
