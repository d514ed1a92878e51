import { describe, expect, it } from 'vitest';
import type { QueryGroup } from '@hdp/contract';
import { aSchema } from '@/test-support/query-fixtures';
import { problemFromServerDetail, validateQuery, validationMap, withArticle } from './rule-validation';

const tables = aSchema().tableSchema;
const tree = (...rules: QueryGroup['rules']): QueryGroup => ({ combinator: 'and', rules });

describe('validateQuery', () => {
  it('accepts complete rules', () => {
    const query = tree(
      { id: 'a', field: 'person.gender_concept_id', operator: '=', value: 8532 },
      { id: 'b', field: 'person.age', operator: 'between', value: [40, 65] },
      { table: 'measurement', rules: [{ field: 'measurement.measurement_concept_id', operator: 'in', value: [3004410] }, { field: 'measurement.value_as_number', operator: '>', value: '7' }] },
    );
    expect(validateQuery(query, tables)).toEqual([]);
  });

  it('asks for a missing number with the field named', () => {
    const problems = validateQuery(tree({ id: 'r1', field: 'person.age', operator: '=', value: '' }), tables);
    expect(problems).toEqual([{ path: [0], id: 'r1', name: 'Rule 1 (Age (years))', message: 'Enter an age (years).' }]);
  });

  it('refuses text where a number belongs', () => {
    expect(validateQuery(tree({ field: 'person.age', operator: '>', value: 'forty' }), tables)[0]!.message).toBe('Age (years) must be a number.');
  });

  it('checks both ends of a range and their order', () => {
    expect(validateQuery(tree({ field: 'person.age', operator: 'between', value: [40, ''] }), tables)[0]!.message).toBe('Enter both the minimum and the maximum.');
    expect(validateQuery(tree({ field: 'person.age', operator: 'between', value: '65,40' }), tables)[0]!.message).toBe('The minimum must not be above the maximum.');
    expect(validateQuery(tree({ field: 'measurement.measurement_date', operator: 'between', value: ['2020-02-01', '2020-01-01'] }), tables)[0]!.message).toBe(
      'The minimum must not be above the maximum.',
    );
  });

  it('asks for concepts, choices and dates in words', () => {
    const query = tree(
      { field: 'person.gender_concept_id', operator: '=', value: '' },
      { table: 'measurement', rules: [{ field: 'measurement.measurement_concept_id', operator: 'in', value: [] }, { field: 'measurement.measurement_date', operator: '>', value: '2020-13-01' }] },
    );
    expect(validateQuery(query, tables).map((p) => [p.name, p.message])).toEqual([
      ['Rule 1 (Sex)', 'Choose a sex.'],
      ['Rule 3 (Measurement)', 'Choose at least one concept.'],
      ['Rule 4 (Date)', 'Enter a date as YYYY-MM-DD.'],
    ]);
  });

  it('needs no value for "is empty", and flags an empty group of records', () => {
    expect(validateQuery(tree({ field: 'measurement.value_as_number', operator: 'null', value: '' }), tables)).toEqual([]);
    expect(validateQuery(tree({ id: 'g', table: 'measurement', rules: [] }), tables)).toEqual([
      { path: [0], id: 'g', name: 'Group 1 (Measurement)', message: 'Add a rule to this group, or remove it.' },
    ]);
  });

  it('keys the highlight by the item id', () => {
    expect(validationMap(validateQuery(tree({ id: 'r1', field: 'person.age', operator: '=', value: '' }), tables))).toEqual({
      r1: { valid: false, reasons: ['Enter an age (years).'] },
    });
  });
});

describe('problemFromServerDetail', () => {
  it("maps the server's path to the same rule and sentence, never showing the path", () => {
    const query = tree({ id: 'r1', field: 'person.age', operator: '=', value: '' });
    const problem = problemFromServerDetail('query.rules[0] (person.age): value must be a number', query, tables);
    expect(problem).toEqual({ path: [0], id: 'r1', name: 'Rule 1 (Age (years))', message: 'Enter an age (years).' });
  });

  it("puts the server's reason in plain words when the builder saw nothing wrong", () => {
    const query = tree({ field: 'person.age', operator: '=', value: 40 }, { table: 'measurement', rules: [{ id: 'x', field: 'measurement.value_as_number', operator: '=', value: 1 }] });
    const problem = problemFromServerDetail('query.rules[1].rules[0] (measurement.value_as_number): operator "=" is not allowed; use one of >', query, tables);
    expect(problem).toMatchObject({ path: [1, 0], id: 'x', name: 'Rule 3 (Value)', message: 'Choose another operator for this field.' });
    expect(problem!.message).not.toMatch(/rules\[/);
  });

  it('answers null for a detail about no item of the tree', () => {
    expect(problemFromServerDetail('name: must not be empty', tree(), tables)).toBeNull();
    expect(problemFromServerDetail('query.rules[4]: must be a rule or a group', tree(), tables)).toBeNull();
  });
});

it('chooses the article by the first letter', () => {
  expect(withArticle('Age (years)')).toBe('an age (years)');
  expect(withArticle('Value')).toBe('a value');
});
