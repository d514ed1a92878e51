import Head from 'next/head';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { ReviewQueuePage } from '@/features/outputs/components/review-queue-page';

const Page: AppPage = () => (
  <>
    <Head>
      <title>{`Review outputs · ${BRAND.name}`}</title>
    </Head>
    <ReviewQueuePage />
  </>
);
Page.access = { permission: 'outputs:review' };
export default Page;
