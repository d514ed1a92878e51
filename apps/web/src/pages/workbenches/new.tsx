import Head from 'next/head';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { WorkbenchWizardPage } from '@/features/workbenches/components/workbench-wizard-page';

const Page: AppPage = () => (
  <>
    <Head>
      <title>{`Create a workbench · ${BRAND.name}`}</title>
    </Head>
    <WorkbenchWizardPage />
  </>
);
Page.access = { permission: 'workbenches:create' };
export default Page;
