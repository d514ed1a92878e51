import { ComingSoon } from '@/features/shell/components/coming-soon';

/** The Workbenches page. */
export function WorkbenchesPage() {
  return <ComingSoon title="Workbenches" description="Create workbenches and work in notebooks." />;
}
