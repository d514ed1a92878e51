import type { ReactNode } from 'react';
import { useRouter } from 'next/router';
import { useSession } from 'next-auth/react';
import dynamic from 'next/dynamic';
import { Layout } from 'antd';
import { can, type Permission } from '@hdp/contract/permissions';
import { useAppSelector } from '@/app/hooks';
import { selectIdToken } from '@/lib/auth/auth-slice';
import { useGetMeQuery } from '@/features/users/api/get-me';
import { AppHeader } from './app-header';
import { SideBar } from './side-bar';
import { LoadFailure } from '@/components/load-failure';
import { LoadingStatus } from '@/components/loading-status';

const PageResult = dynamic(() => import('@/components/page-result'));
const loading = (label: string) => <LoadingStatus label={label} padding={48} />;

/** The application frame: header, side bar and the page. A page with a permission the user lacks shows 403. */
export function AppShell({ permission, children }: { permission?: Permission; children: ReactNode }) {
  const { pathname } = useRouter();
  const { data: session } = useSession();
  const idToken = useAppSelector(selectIdToken);
  const { data: me, isLoading, isError, error, isFetching, refetch } = useGetMeQuery(undefined, { skip: !idToken });

  let content: ReactNode;
  if (!me && (isLoading || !idToken)) content = loading('Loading your account');
  // The server could not be read (not a problem with the account): say why, and offer Retry.
  else if (!me && isError) content = <LoadFailure title="Your details could not be loaded." error={error} onRetry={() => void refetch()} retrying={isFetching} />;
  else if (permission && !can(me ?? null, permission))
    content = <PageResult status="403" title="Not available to you" subTitle="Your roles do not allow you to open this page." />;
  else content = children;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <AppHeader me={me} fallbackName={session?.user?.name} />
      <Layout>
        <Layout.Sider width={232} breakpoint="lg" collapsedWidth={0} style={{ borderInlineEnd: '1px solid #e5e8ec' }}>
          {/* Until the user is known every item would show disabled: wait rather than flash. */}
          {me ? <SideBar actor={me} pathname={pathname} /> : null}
        </Layout.Sider>
        <Layout.Content style={{ padding: 24 }}>
          <main>{content}</main>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
