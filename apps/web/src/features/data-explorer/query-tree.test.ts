import { describe, expect, it } from 'vitest';
import type { QueryGroup } from '@hdp/contract';
import { builderFields, countRules, sameTree, scopedTable, withoutIds } from './query-tree';
import { aSchema } from '@/test-support/query-fixtures';

const tree: QueryGroup = {
  id: 'root',
  combinator: 'and',
  rules: [
    { id: 'r1', field: 'person.age', operator: 'between', value: [40, 65] },
    { id: 'g1', table: 'measurement', combinator: 'and', rules: [{ id: 'r2', field: 'measurement.value_as_number', operator: '>', value: 7 }, { id: 'g2', combinator: 'or', rules: [] }] },
  ],
};

describe('query builder fields from the schema', () => {
  it('makes one option group per table, with operators, editors and the concept domain', () => {
    const [person, measurement] = builderFields(aSchema().tableSchema);
    expect(person!.label).toBe('Person');
    const sex = person!.options[0]!;
    expect(sex).toMatchObject({ name: 'person.gender_concept_id', table: 'person', values: [{ name: '8532', label: 'Female' }, { name: '8507', label: 'Male' }] });
    expect(sex.valueEditorType('=')).toBe('select');
    expect(sex.valueEditorType('in')).toBe('multiselect');
    expect(person!.options[1]).toMatchObject({ inputType: 'number' });
    expect(measurement!.options[0]).toMatchObject({ conceptDomain: 'Measurement', operators: [{ name: 'in', label: 'is any of' }, { name: '=', label: 'is' }] });
    expect(measurement!.options[2]).toMatchObject({ inputType: 'date' });
  });
});

describe('the query tree', () => {
  it('finds the event table a group (or its nearest scoped ancestor) is about', () => {
    expect(scopedTable(tree, [])).toBeUndefined();
    expect(scopedTable(tree, [1])).toBe('measurement');
    expect(scopedTable(tree, [1, 1])).toBe('measurement');
  });

  it('drops the ids the builder adds, and compares trees without them', () => {
    expect(withoutIds(tree)).toEqual({
      combinator: 'and',
      rules: [
        { field: 'person.age', operator: 'between', value: [40, 65] },
        { table: 'measurement', combinator: 'and', rules: [{ field: 'measurement.value_as_number', operator: '>', value: 7 }, { combinator: 'or', rules: [] }] },
      ],
    });
    expect(sameTree(tree, withoutIds(tree))).toBe(true);
    expect(sameTree(tree, { ...tree, combinator: 'or' })).toBe(false);
    expect(countRules(tree)).toBe(2);
  });
});
