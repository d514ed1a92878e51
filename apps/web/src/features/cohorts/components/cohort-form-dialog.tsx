import { useEffect, useId, useState, type ReactNode } from 'react';
import { Input, Modal, Select } from 'antd';
import { COHORT_MAX_TAGS } from '@hdp/contract/cohort-lifecycle';
import { COHORT_DESCRIPTION_MAX_LENGTH, COHORT_NAME_MAX_LENGTH, cohortFormBody, cohortFormProblems, normaliseTags, type CohortFormValues } from '../cohort-form';

export interface CohortFormDialogProps {
  open: boolean;
  title: string;
  okText: string;
  initial: CohortFormValues;
  busy: boolean;
  /** Said above the fields (what the dialog will do). */
  intro?: ReactNode;
  /** Tags to suggest (those in use). */
  suggestedTags?: readonly string[];
  onSubmit: (values: CohortFormValues) => void;
  onCancel: () => void;
}

const FIELD = { display: 'flex', flexDirection: 'column', gap: 4, marginBottom: 16 } as const;
const PROBLEM = { color: '#cf1322', margin: 0, fontSize: 13 } as const;

/** Asks for a cohort's name, description and tags (create and edit). */
export function CohortFormDialog({ open, title, okText, initial, busy, intro, suggestedTags = [], onSubmit, onCancel }: CohortFormDialogProps) {
  const id = useId();
  const [values, setValues] = useState<CohortFormValues>(initial);
  const [touched, setTouched] = useState(false);
  // A newly opened dialog starts again from the initial values (later changes to them do not reset typing).
  useEffect(() => {
    if (open) {
      setValues(initial);
      setTouched(false);
    }
  }, [open]);

  const problems = cohortFormProblems(values);
  const valid = Object.keys(problems).length === 0;
  const submit = () => {
    setTouched(true);
    if (valid) onSubmit(cohortFormBody(values));
  };
  const problem = (field: keyof CohortFormValues) =>
    problems[field] && (touched || field !== 'name') ? (
      <p id={`${id}-${field}-problem`} role="alert" style={PROBLEM}>
        {problems[field]}
      </p>
    ) : null;
  const describedBy = (field: keyof CohortFormValues) => (problem(field) ? `${id}-${field}-problem` : undefined);
  const tagOptions = [...new Set([...suggestedTags, ...values.tags])].map((tag) => ({ value: tag, label: tag }));

  return (
    <Modal open={open} title={title} okText={okText} onOk={submit} onCancel={onCancel} okButtonProps={{ loading: busy }} destroyOnHidden>
      {intro ? <div style={{ marginBottom: 16 }}>{intro}</div> : null}
      <div style={FIELD}>
        <label htmlFor={`${id}-name`}>Name</label>
        <Input
          id={`${id}-name`}
          value={values.name}
          maxLength={COHORT_NAME_MAX_LENGTH}
          autoFocus
          aria-required
          aria-invalid={Boolean(problem('name'))}
          aria-describedby={describedBy('name')}
          onChange={(event) => setValues((v) => ({ ...v, name: event.target.value }))}
          onPressEnter={submit}
        />
        {problem('name')}
      </div>
      <div style={FIELD}>
        <label htmlFor={`${id}-description`}>Description</label>
        <Input.TextArea
          id={`${id}-description`}
          value={values.description}
          maxLength={COHORT_DESCRIPTION_MAX_LENGTH}
          autoSize={{ minRows: 3, maxRows: 8 }}
          aria-describedby={describedBy('description')}
          onChange={(event) => setValues((v) => ({ ...v, description: event.target.value }))}
        />
        {problem('description')}
      </div>
      <div style={FIELD}>
        <label htmlFor={`${id}-tags`}>Tags</label>
        <Select
          id={`${id}-tags`}
          aria-label="Tags"
          mode="tags"
          value={values.tags}
          options={tagOptions}
          maxCount={COHORT_MAX_TAGS}
          tokenSeparators={[',']}
          placeholder={`Up to ${COHORT_MAX_TAGS}, e.g. diabetes`}
          aria-describedby={describedBy('tags')}
          onChange={(tags: string[]) => setValues((v) => ({ ...v, tags: normaliseTags(tags) }))}
        />
        {problem('tags')}
      </div>
    </Modal>
  );
}
