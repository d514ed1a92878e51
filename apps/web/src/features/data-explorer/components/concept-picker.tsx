import { useEffect, useMemo, useRef, useState } from 'react';
import { Select, Spin } from 'antd';
import { skipToken } from '@reduxjs/toolkit/query';
import { useConceptNames, useSearchConceptsQuery } from '../api/explorer-schema';

const SEARCH_DELAY_MS = 300;

export interface ConceptPickerProps {
  /** The OMOP domain searched (e.g. `Condition`, `Measurement`). */
  domain: string;
  /** Several concepts (`in`, `notIn`) or one (`=`, `!=`). */
  multiple: boolean;
  value: unknown;
  onChange: (value: number | number[] | '') => void;
  label: string;
  disabled?: boolean;
  /** The id of the sentence saying what is wrong with the choice, when something is. */
  invalid?: string;
}

/** Concept ids held by a rule's value: a number, numeric text, a list of them or comma-separated text. */
export function conceptIds(value: unknown): number[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : value === undefined || value === null ? [] : [value];
  return items.map((item) => Number(String(item).trim())).filter((n) => String(n) !== 'NaN' && n !== 0 && Number.isInteger(n));
}

/**
 * A searchable select of concepts: it searches the domain by name, code or id as the user types
 * (`GET /api/v1/data-explorer/concepts/`) and keeps the rule's value as concept ids.
 */
export function ConceptPicker({ domain, multiple, value, onChange, label, disabled, invalid }: ConceptPickerProps) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const names = useRef(new Map<number, string>());
  const ids = conceptIds(value);
  // Values opened from a saved query have no names yet: look them up by their ids, all at once.
  const looked = useConceptNames(ids.filter((id) => !names.current.has(id)));
  for (const [id, name] of looked) names.current.set(id, name);
  const { data, isFetching } = useSearchConceptsQuery(search ? { search, domain: domain || undefined } : skipToken);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  for (const concept of data?.concepts ?? []) names.current.set(concept.concept_id, concept.concept_name);

  const options = useMemo(() => {
    const found = (search ? (data?.concepts ?? []) : []).map((c) => ({
      value: c.concept_id,
      label: `${c.concept_name} (${c.vocabulary_id} ${c.concept_code})`,
    }));
    const kept = ids
      .filter((id) => !found.some((o) => o.value === id))
      .map((id) => ({ value: id, label: names.current.get(id) ?? `Concept ${id}` }));
    return [...kept, ...found];
  }, [data, looked, search, ids.join(',')]);

  return (
    <Select
      aria-label={label}
      aria-invalid={invalid ? true : undefined}
      aria-describedby={invalid}
      status={invalid ? 'error' : undefined}
      className="concept-picker"
      style={{ minWidth: 260 }}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      mode={multiple ? 'multiple' : undefined}
      allowClear
      disabled={disabled}
      placeholder="Search by name or code"
      popupMatchSelectWidth={false}
      notFoundContent={isFetching ? <Spin size="small" /> : search ? 'No concepts found' : 'Type to search'}
      options={options}
      value={multiple ? ids : ids[0]}
      onChange={(next: number | number[] | undefined) => {
        setTyped('');
        if (Array.isArray(next)) onChange(next);
        else onChange(next ?? '');
      }}
    />
  );
}
