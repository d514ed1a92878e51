import { Input } from 'antd';
import { WORKBENCH_LIMITS } from '@hdp/contract/workbench-rules';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { nameChanged, purposeChanged, selectWorkbenchWizard } from '../../slice';
import { nameProblem, purposeCount, purposeProblem } from '../../wizard-rules';

const FIELD = { display: 'flex', flexDirection: 'column', gap: 4, marginBottom: 20 } as const;
const HELP = { color: '#5b6470', fontSize: 13, margin: 0 } as const;
const ERROR = { color: '#cf1322', fontSize: 13, margin: 0 } as const;

/** The description step: the workbench's name and its research purpose, with a live count under the purpose. */
export function DescriptionStep({ showProblems, nameTaken = null, onNameChange }: { showProblems: boolean; nameTaken?: string | null; onNameChange?: () => void }) {
  const dispatch = useAppDispatch();
  const { name, purpose } = useAppSelector(selectWorkbenchWizard);
  const nameError = (showProblems ? nameProblem(name) : null) ?? nameTaken;
  const purposeError = showProblems ? purposeProblem(purpose) : null;
  return (
    <>
      <div style={FIELD}>
        <label htmlFor="workbench-name" style={{ fontWeight: 500 }}>
          Name
        </label>
        <Input
          id="workbench-name"
          value={name}
          maxLength={WORKBENCH_LIMITS.nameMaxLength}
          onChange={(event) => {
            dispatch(nameChanged(event.target.value));
            onNameChange?.();
          }}
          status={nameError ? 'error' : undefined}
          aria-invalid={nameError ? true : undefined}
          aria-describedby="workbench-name-help"
          style={{ maxWidth: 520 }}
        />
        <p id="workbench-name-help" style={nameError ? ERROR : HELP}>
          {nameError ?? `${WORKBENCH_LIMITS.nameMinLength} to ${WORKBENCH_LIMITS.nameMaxLength} characters, different from your other workbenches' names.`}
        </p>
      </div>
      <div style={FIELD}>
        <label htmlFor="workbench-purpose" style={{ fontWeight: 500 }}>
          Research purpose
        </label>
        <Input.TextArea
          id="workbench-purpose"
          value={purpose}
          rows={6}
          maxLength={WORKBENCH_LIMITS.purposeMaxLength}
          onChange={(event) => dispatch(purposeChanged(event.target.value))}
          status={purposeError ? 'error' : undefined}
          aria-invalid={purposeError ? true : undefined}
          aria-describedby="workbench-purpose-help workbench-purpose-count"
          style={{ maxWidth: 720 }}
        />
        <p id="workbench-purpose-help" style={HELP}>
          What the data will be used for, in at least {WORKBENCH_LIMITS.purposeMinLength} characters. Members and reviewers read it.
        </p>
        <p id="workbench-purpose-count" aria-live="polite" data-testid="purpose-count" style={purposeError ? ERROR : HELP}>
          {purposeError ?? purposeCount(purpose)}
        </p>
      </div>
    </>
  );
}
