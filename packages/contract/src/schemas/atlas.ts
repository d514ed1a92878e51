import { z } from 'zod';
import { LINT_RULES } from '../cohort-definition-lint';
import { SavedQuery } from './data-explorer';

/**
 * A cohort definition in OHDSI Circe's JSON (ATLAS's export, the Phenotype Library's
 * `inst/cohorts/<id>.json`). Its inside is read field by field by the import, which names the
 * place of any problem; here it is only "a JSON object".
 */
export const AtlasCohortDefinition = z.record(z.string(), z.unknown()).meta({ id: 'AtlasCohortDefinition' });

export const AtlasImportRequest = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).optional(),
    definition: AtlasCohortDefinition,
  })
  .meta({ id: 'AtlasImportRequest' });
export type AtlasImportRequest = z.infer<typeof AtlasImportRequest>;

/** Warnings beyond the lint's: concepts the warehouse's vocabulary does not hold. */
export const IMPORT_WARNING_RULES = ['unknown_concept', 'vocabulary_not_checked'] as const;

export const DefinitionWarningSchema = z
  .object({
    rule: z.enum([...(Object.keys(LINT_RULES) as (keyof typeof LINT_RULES)[]), ...IMPORT_WARNING_RULES]),
    severity: z.enum(['WARNING', 'INFO']),
    /** The place in the Circe JSON (`InclusionRules[0].expression.CriteriaList[1]`). */
    path: z.string(),
    message: z.string(),
  })
  .meta({ id: 'DefinitionWarning' });
export type DefinitionWarningSchema = z.infer<typeof DefinitionWarningSchema>;

/** The saved query an import made, with the warnings about it. */
export const AtlasImportResult = SavedQuery.extend({ warnings: z.array(DefinitionWarningSchema) }).meta({ id: 'AtlasImportResult' });
export type AtlasImportResult = z.infer<typeof AtlasImportResult>;

export const DefinitionLint = z.object({ warnings: z.array(DefinitionWarningSchema) }).meta({ id: 'DefinitionLint' });
export type DefinitionLint = z.infer<typeof DefinitionLint>;
