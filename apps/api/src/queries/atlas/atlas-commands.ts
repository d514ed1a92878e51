import { CohortDefinitionExpression, type AtlasImportResult, type DefinitionLint, type DefinitionWarningSchema } from '@hdp/contract';
import type { AppServices } from '../../app-services';
import { appendAuditEntry, type AuditContext } from '../../audit/audit-trail';
import { ApiError } from '../../http/api-error';
import type { UserRow } from '../../users/user-repository';
import { loadVisibleQuery } from '../query-commands';
import { presentQuery } from '../query-presenter';
import { queryRepository } from '../query-repository';
import { prepareAtlasImport } from './atlas-definition';
import { CirceExportError, exportCirce } from './circe-export';
import { CirceImportError } from './circe-import';
import { lintCohortDefinition } from '@hdp/contract';
import { vocabularyConcepts } from './vocabulary-concepts';

/** At most this many unknown concepts are listed one by one; the rest are counted in one more warning. */
const UNKNOWN_CONCEPTS_LISTED = 50;

/**
 * Imports a Circe cohort definition as a saved query of the actor's. A malformed definition is a
 * 400 and an unsupported construct a 422, each naming its place in the JSON; nothing is written
 * then. Concepts the vocabulary does not hold are kept and reported among the warnings.
 */
export async function importAtlasQuery(
  services: AppServices,
  actor: UserRow,
  input: { name: string; description?: string; definition: Record<string, unknown> },
  context: AuditContext,
): Promise<AtlasImportResult> {
  let prepared: ReturnType<typeof prepareAtlasImport>;
  try {
    prepared = prepareAtlasImport(input.definition);
  } catch (error) {
    if (error instanceof CirceImportError) {
      throw new ApiError(error.kind === 'malformed' ? 400 : 422, `definition.${error.path}: ${error.reason}`.replace('definition.definition', 'definition'));
    }
    throw error;
  }
  const warnings: DefinitionWarningSchema[] = [...prepared.warnings];
  const known = await vocabularyConcepts(services.warehouse, prepared.concepts.map((c) => c.id));
  if (!known) {
    warnings.push({ rule: 'vocabulary_not_checked', severity: 'INFO', path: 'ConceptSets', message: 'No data is loaded yet, so the concept ids were not checked against a vocabulary.' });
  } else {
    const unknown = prepared.concepts.filter((c) => !known.has(c.id));
    for (const c of unknown.slice(0, UNKNOWN_CONCEPTS_LISTED)) {
      warnings.push({ rule: 'unknown_concept', severity: 'WARNING', path: c.path, message: `Concept ${c.id} is not in this warehouse's vocabulary: it is kept, but matches no record here.` });
    }
    if (unknown.length > UNKNOWN_CONCEPTS_LISTED) {
      warnings.push({ rule: 'unknown_concept', severity: 'WARNING', path: 'ConceptSets', message: `${unknown.length - UNKNOWN_CONCEPTS_LISTED} more concepts are not in this warehouse's vocabulary.` });
    }
  }
  const row = await services.db.transaction(async (tx) => {
    const inserted = await queryRepository.insert(tx, {
      name: input.name,
      description: input.description ?? 'Imported from an ATLAS cohort definition.',
      query: prepared.tree,
      ownerId: actor.id,
    });
    await appendAuditEntry(tx, context, {
      eventType: 'QUERY_IMPORTED',
      outcome: 'SUCCESS',
      message: `${actor.email} imported query "${inserted.name}" from an ATLAS cohort definition`,
      resourceType: 'query',
      resourceId: inserted.id,
      details: { name: inserted.name, version: inserted.version, format: 'ATLAS', query: inserted.query, warnings: warnings.map((w) => `${w.rule} ${w.path}`) },
    });
    return { ...inserted, ownerEmail: actor.email };
  });
  return { ...presentQuery(row), warnings };
}

/** The saved query's cohort definition; a query without one (or with rules beside it) has no Circe form. */
async function definitionOf(services: AppServices, actor: UserRow, queryId: string): Promise<CohortDefinitionExpression | null> {
  const row = await loadVisibleQuery(services, actor, queryId);
  if (!row.query.cohortDefinition) return null;
  return CohortDefinitionExpression.parse(row.query.cohortDefinition);
}

export async function exportAtlasQuery(services: AppServices, actor: UserRow, queryId: string): Promise<Record<string, unknown>> {
  const row = await loadVisibleQuery(services, actor, queryId);
  if (!row.query.cohortDefinition) throw new ApiError(422, 'This query has no cohort definition, so there is nothing ATLAS could import.');
  if ((row.query.rules?.length ?? 0) > 0 || row.query.not) {
    throw new ApiError(422, 'This query narrows its cohort definition with data-explorer rules, which an ATLAS definition cannot hold; remove them to export.');
  }
  const definition = CohortDefinitionExpression.parse(row.query.cohortDefinition);
  const ids = [...definition.conceptSets.flatMap((s) => s.expression.items.map((i) => i.conceptId)), ...conceptListIds(definition)];
  const known = (await vocabularyConcepts(services.warehouse, ids)) ?? new Map();
  try {
    return exportCirce(definition, (id) => known.get(id));
  } catch (error) {
    if (error instanceof CirceExportError) throw new ApiError(422, `query.cohortDefinition.${error.path}: ${error.reason}`);
    throw error;
  }
}

export async function lintQuery(services: AppServices, actor: UserRow, queryId: string): Promise<DefinitionLint> {
  const definition = await definitionOf(services, actor, queryId);
  return { warnings: definition ? lintCohortDefinition(definition) : [] };
}

const CONCEPT_LISTS = new Set(['gender', 'typeConcepts', 'visitType', 'valueAsConcept', 'unit', 'race', 'ethnicity']);

/** The ids of every concept list of criteria (gender, types, units, ...), anywhere in the definition. */
function conceptListIds(value: unknown, out: number[] = []): number[] {
  if (Array.isArray(value)) value.forEach((v) => conceptListIds(v, out));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (CONCEPT_LISTS.has(key) && Array.isArray(v)) out.push(...v.filter((id): id is number => typeof id === 'number'));
      else conceptListIds(v, out);
    }
  }
  return out;
}
