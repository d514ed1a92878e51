import { ComingSoon } from '@/features/shell/components/coming-soon';

/** The Cohorts page. */
export function CohortsPage() {
  return <ComingSoon title="Cohorts" description="Browse published cohorts." />;
}
