import type { DataExplorerSchema, QueryResult, ResultCell } from '@hdp/contract';

const cell = (key: string, label: string, count: number | null, display: string, suppressed = false): ResultCell => ({
  key, label, count, display, suppressed,
});

/** A result as the API answers it, with two suppressed cells (a small one and the one that protects it). */
export function aResult(): QueryResult {
  return {
    person_count: 273,
    person_count_display: '273',
    suppression_threshold: 20,
    perturbed: true,
    breakdowns: {
      sex: [cell('8532', 'FEMALE', 273, '273')],
      age_band: [cell('40', '40–49', 80, '80'), cell('50', '50–59', 118, '118'), cell('60', '60–69', 75, '75')],
      race: [
        cell('8527', 'White', 163, '163'),
        cell('0', 'Unknown', 56, '56'),
        cell('8516', 'Black or African American', null, 'suppressed', true),
        cell('8515', 'Asian', null, 'suppressed', true),
      ],
      ethnicity: [cell('38003564', 'Not Hispanic or Latino', 218, '218'), cell('38003563', 'Hispanic or Latino', 55, '55')],
      sex_by_age_band: [{ key: '8532', label: 'FEMALE', cells: [cell('40', '40–49', 80, '80'), cell('50', '50–59', 118, '118'), cell('60', '60–69', 75, '75')] }],
    },
    execution_time_ms: 46.2,
  };
}

/** A small schema: the person table and the measurement table. */
export function aSchema(loaded = true): DataExplorerSchema {
  const ordered = [{ name: '=' as const, label: '=' }, { name: '>' as const, label: '>' }, { name: 'between' as const, label: 'between' }];
  return {
    warehouse: { loaded, source: loaded ? 'generated' : null },
    tableSchema: [
      {
        name: 'person', label: 'Person', kind: 'person',
        fields: [
          { name: 'person.gender_concept_id', label: 'Sex', type: 'concept', operators: [{ name: '=', label: 'is' }, { name: 'in', label: 'is any of' }], valueEditor: { type: 'select', values: [{ value: 8532, label: 'Female' }, { value: 8507, label: 'Male' }] } },
          { name: 'person.age', label: 'Age (years)', type: 'number', operators: ordered, valueEditor: { type: 'number' } },
        ],
      },
      {
        name: 'measurement', label: 'Measurement', kind: 'event',
        fields: [
          { name: 'measurement.measurement_concept_id', label: 'Measurement', type: 'concept', operators: [{ name: 'in', label: 'is any of' }, { name: '=', label: 'is' }], valueEditor: { type: 'concept', domain: 'Measurement' }, includesDescendants: true },
          { name: 'measurement.value_as_number', label: 'Value', type: 'number', operators: ordered, valueEditor: { type: 'number' } },
          { name: 'measurement.measurement_date', label: 'Date', type: 'date', operators: ordered, valueEditor: { type: 'date' } },
        ],
      },
    ],
  };
}
