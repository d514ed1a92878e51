import { describe, expect, it } from 'vitest';
import { exportFileName, nameFromFile, refusalInWords } from './atlas-messages';

describe('ATLAS import refusals in words', () => {
  it('says what is not supported first and where second', () => {
    expect(refusalInWords(422, 'definition.PrimaryCriteria.CriteriaList[0].DoseEra: dose eras are not supported')).toBe(
      'This definition uses something the platform does not support yet: Dose eras are not supported (at PrimaryCriteria.CriteriaList[0].DoseEra). Nothing was imported.',
    );
  });
  it('says a malformed definition could not be read, with the place', () => {
    expect(refusalInWords(400, 'definition.ConceptSets[0].id: must be a whole number')).toBe(
      'The definition could not be read: Must be a whole number (at ConceptSets[0].id). Nothing was imported.',
    );
    expect(refusalInWords(400, 'body: nests objects and arrays more than 32 deep')).toBe('The definition could not be read: Nests objects and arrays more than 32 deep. Nothing was imported.');
    expect(refusalInWords(413, 'The request body is larger than the limit of 1048576 bytes.')).toBe('The file is too large to import.');
    expect(refusalInWords('FETCH_ERROR', undefined)).toBe('The definition could not be imported. Please try again.');
  });
  it('names queries after files and files after queries', () => {
    expect(nameFromFile('celecoxibAge40.json')).toBe('celecoxibAge40');
    expect(exportFileName('Celecoxib, age > 40')).toBe('Celecoxib_age_40.json');
    expect(exportFileName('///')).toBe('cohort-definition.json');
  });
});
