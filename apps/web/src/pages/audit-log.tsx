import Head from 'next/head';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import dayjs from 'dayjs';
import { DEFAULT_OFFSET, PAGE_SIZES } from '@/config/constants';
import { AuditLogPage } from '@/features/audit-log/components/audit-log-page';
import { listAuditLogApi } from '@/features/audit-log/api/list-audit-log';
import { defaultFilters, toQuery } from '@/features/audit-log/audit-log-filters';

const Page: AppPage = () => (
  <>
    <Head>
      <title>{`Audit Log · ${BRAND.name}`}</title>
    </Head>
    <AuditLogPage />
  </>
);
Page.access = { permission: 'auditLog:read' };
// The entries the table opens with: the default filters (the past 30 days, in the zone the server
// shares with the browser), first page.
Page.initialQueries = () => [listAuditLogApi.endpoints.listAuditLog.initiate(toQuery(defaultFilters(dayjs()), DEFAULT_OFFSET, PAGE_SIZES.auditLog))];
export default Page;
