import Head from 'next/head';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { UsersPage } from '@/features/users/components/users-page';

const Page: AppPage = () => (
  <>
    <Head>
      <title>{`Users · ${BRAND.name}`}</title>
    </Head>
    <UsersPage />
  </>
);
Page.access = { permission: 'users:list' };
export default Page;
