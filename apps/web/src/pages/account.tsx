import Head from 'next/head';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { AccountPage } from '@/features/account/components/account-page';

const Page: AppPage = () => (
  <>
    <Head>
      <title>{`Your account · ${BRAND.name}`}</title>
    </Head>
    <AccountPage />
  </>
);
Page.access = { permission: 'account:manageSessions' };
export default Page;
