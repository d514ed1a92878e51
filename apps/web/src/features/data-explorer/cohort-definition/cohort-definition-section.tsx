import type { ComponentType } from 'react';
import { Button, Flex } from 'antd';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { queryChanged, selectQuery } from '../slice';
import { newDefinition } from './definition-model';

/**
 * The cohort definition's place in the data explorer: its heading, and the button that adds or
 * removes a definition. The editor itself is given (the workspace gives it loaded on demand), so a
 * query built with the simple builder alone never downloads the time-based builder's code.
 */
export function CohortDefinitionSection({ Editor }: { Editor: ComponentType }) {
  const dispatch = useAppDispatch();
  const query = useAppSelector(selectQuery);
  const hasDefinition = !!query.cohortDefinition;
  return (
    <section aria-labelledby="cohort-definition-heading" className="cohort-definition-builder" style={{ marginTop: 16 }}>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
        <h3 id="cohort-definition-heading" style={{ fontSize: 16, fontWeight: 600, margin: 0 }}>
          Cohort definition with time
        </h3>
        {hasDefinition ? (
          <Button danger onClick={() => dispatch(queryChanged({ ...query, cohortDefinition: undefined }))}>
            Remove the cohort definition
          </Button>
        ) : (
          <Button onClick={() => dispatch(queryChanged({ ...query, cohortDefinition: newDefinition() }))}>Add entry events and time</Button>
        )}
      </Flex>
      {hasDefinition ? (
        <Editor />
      ) : (
        <p style={{ margin: 0, color: '#5b6470' }}>
          For questions with an index event (&quot;new users of a drug with a year of prior observation&quot;): entry events, inclusion rules with time windows, exit and censoring, counted
          live as you edit.
        </p>
      )}
    </section>
  );
}
