import { ComingSoon } from '@/features/shell/components/coming-soon';

/** One workbench with its notebooks and documents. */
export function WorkbenchPage({ workbenchId }: { workbenchId: string }) {
  return <ComingSoon title="Workbench" description={`The notebooks and documents of workbench ${workbenchId}.`} />;
}
