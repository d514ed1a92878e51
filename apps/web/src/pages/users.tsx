import Head from 'next/head';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { UsersPage } from '@/features/users/components/users-page';
import { listUsersApi } from '@/features/users/api/list-users';
import { INITIAL_USER_LIST_STATE, toListUsersArgs } from '@/features/users/hooks/user-list-params';

const Page: AppPage = () => (
  <>
    <Head>
      <title>{`Users · ${BRAND.name}`}</title>
    </Head>
    <UsersPage />
  </>
);
Page.access = { permission: 'users:list' };
Page.initialQueries = () => [listUsersApi.endpoints.listUsers.initiate(toListUsersArgs(INITIAL_USER_LIST_STATE))];
export default Page;
