import { lintCohortDefinition, type CohortDefinitionExpression, type DefinitionWarning, type QueryGroup } from '@hdp/contract';
import { compileCohortPredicate, QueryTreeError } from '../../warehouse/cohort-compiler';
import { CirceImportError, importCirce } from './circe-import';

/** The query tree a definition is saved as: the definition alone, no other rules. */
export const atlasQueryTree = (definition: CohortDefinitionExpression): QueryGroup => ({ combinator: 'and', rules: [], cohortDefinition: definition });

export interface PreparedAtlasImport {
  tree: QueryGroup;
  definition: CohortDefinitionExpression;
  concepts: { id: number; path: string }[];
  warnings: DefinitionWarning[];
}

/**
 * Everything of an import that needs no database: Circe JSON → the model, the compiler's own
 * checks (so what is saved can run), and the lint warnings. Throws `CirceImportError`.
 */
export function prepareAtlasImport(json: unknown): PreparedAtlasImport {
  const { definition, concepts } = importCirce(json);
  const tree = atlasQueryTree(definition);
  try {
    compileCohortPredicate(tree, 'cdm_validation');
  } catch (error) {
    if (error instanceof QueryTreeError) throw new CirceImportError('unsupported', error.path.replace(/^query\.cohortDefinition\.?/, '') || 'definition', error.reason);
    throw error;
  }
  return { tree, definition, concepts, warnings: lintCohortDefinition(definition) };
}
