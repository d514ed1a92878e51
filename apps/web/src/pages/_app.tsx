// First: style elements created while the modules below load need the page's nonce already.
import '@/lib/security/style-nonce';
import '@hdp/contract/jitless';
import NextApp, { type AppContext, type AppProps } from 'next/app';
import Head from 'next/head';
import type { Session } from 'next-auth';
import type { InitialQueryEntry } from '@/lib/api/server-queries';
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
export default function App({ Component, pageProps: { session, initialQueries, ...pageProps } }: AppProps<{ session?: Session | null; initialQueries?: InitialQueryEntry[] }>) {
  const access = (Component as AppPage).access ?? {};
  const page = <Component {...pageProps} />;
  return (
    <AppProviders session={session} initialQueries={initialQueries}>
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
          <AppShell permission={access.permission}>
            {page}
          </AppShell>
        </RequireSession>
      )}
    </AppProviders>
  );
}

/**
 * Every page is rendered per request, never pre-rendered at build time: its HTML must carry the
 * fresh nonce the Content-Security-Policy of that answer names (see `proxy.ts`). A page that is not
 * public is rendered on the server with the session and the signed-in user, so its first HTML is
 * the shell and the page's frame rather than a spinner; with its first data too where it names its
 * queries (`initialQueries`). (On the browser's own route changes this
 * runs in the browser, where the session and the user are already known.)
 */
App.getInitialProps = async (context: AppContext) => {
  const props = await NextApp.getInitialProps(context);
  const { req, res } = context.ctx;
  const page = context.Component as AppPage;
  if (typeof window === 'undefined' && req && res && (page.access !== 'public' || page.sessionOnServer)) {
    const { readPageSession } = await import('@/app/server-page-session');
    // Should reading it fail, the page renders as it would without: the browser asks for the session.
    const withUser = page.access !== 'public';
    const options = { withUser, queries: withUser ? page.initialQueries : undefined, query: context.ctx.query };
    Object.assign(props.pageProps, await readPageSession(req, res, options).catch(() => ({})));
  }
  return props;
};
