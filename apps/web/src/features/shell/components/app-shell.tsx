import { useEffect, useState, type ReactNode } from 'react';
import { useRouter } from 'next/router';
import { useSession } from 'next-auth/react';
import dynamic from 'next/dynamic';
import { can, type Permission } from '@hdp/contract/permissions';
import { useAppSelector } from '@/app/hooks';
import { selectIdToken } from '@/lib/auth/auth-slice';
import { useGetMeQuery } from '@/features/users/api/get-me';
import { AppHeader } from './app-header';
import { SideBar } from './side-bar';
import { LoadingStatus } from '@/components/loading-status';
import { CurrentUserContext } from '@/lib/auth/current-user';

// Shown only when something is wrong: their code (and the component library under them) loads then.
const PageResult = dynamic(() => import('@/components/page-result'));
const LoadFailure = dynamic(() => import('@/components/load-failure').then((module) => module.LoadFailure));
const NavDrawer = dynamic(() => import('./nav-drawer'));
const loading = (label: string) => <LoadingStatus label={label} padding={48} />;

/**
 * The application frame: header, side bar and the page. A page with a permission the user lacks
 * shows 403 with a way home. Below the `lg` breakpoint the side bar is a drawer over the page,
 * with a scrim and a close button, opened from the header's menu button. The frame is plain markup
 * and CSS (global.css): it is on every page, so no component library is needed to draw it.
 */
export function AppShell({ permission, children }: { permission?: Permission; children: ReactNode }) {
  const { pathname, asPath } = useRouter();
  const { data: session } = useSession();
  const idToken = useAppSelector(selectIdToken);
  // On a page rendered by the server, the user it read is already in the store.
  const { data: me, isLoading, isError, error, isFetching, refetch } = useGetMeQuery(undefined, { skip: !idToken });
  const [menuOpen, setMenuOpen] = useState(false);
  // The drawer's code loads the first time the menu is opened, and stays for its closing animation.
  const [menuUsed, setMenuUsed] = useState(false);

  // A link followed from the drawer closes it.
  useEffect(() => setMenuOpen(false), [asPath]);

  let content: ReactNode;
  if (!me && (isLoading || !idToken)) content = loading('Loading your account');
  // The server could not be read (not a problem with the account): say why, and offer Retry.
  else if (!me && isError) content = <LoadFailure title="Your details could not be loaded." error={error} onRetry={() => void refetch()} retrying={isFetching} />;
  else if (permission && !can(me ?? null, permission))
    content = <PageResult status="403" title="Not available to you" subTitle="Your roles do not allow you to open this page." home />;
  else content = children;

  // Until the user is known every item would show disabled: wait rather than flash.
  const sideBar = me ? <SideBar actor={me} pathname={pathname} /> : null;
  return (
    <div className="hdp-layout">
      <AppHeader me={me} fallbackName={session?.user?.name} onOpenMenu={() => {
          setMenuUsed(true);
          setMenuOpen(true);
        }} />
      <div className="hdp-body">
        <aside className="hdp-sider">{sideBar}</aside>
        {menuUsed ? (
          <NavDrawer open={menuOpen} onClose={() => setMenuOpen(false)}>
            {sideBar}
          </NavDrawer>
        ) : null}
        {/* The page's one <main>. */}
        <main className="hdp-content">
          <CurrentUserContext.Provider value={me}>{content}</CurrentUserContext.Provider>
        </main>
      </div>
    </div>
  );
}
