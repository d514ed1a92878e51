import Head from 'next/head';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { AuditLogPage } from '@/features/audit-log/components/audit-log-page';

const Page: AppPage = () => (
  <>
    <Head>
      <title>{`Audit Log · ${BRAND.name}`}</title>
    </Head>
    <AuditLogPage />
  </>
);
Page.access = { permission: 'auditLog:read' };
export default Page;
