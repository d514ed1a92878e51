import { ComingSoon } from '@/features/shell/components/coming-soon';

/** One cohort. */
export function CohortPage({ cohortId }: { cohortId: string }) {
  return <ComingSoon title="Cohort" description={`The details of cohort ${cohortId}.`} />;
}
