import { buildMissingEras } from './era-builder';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ancestorRows, CONCEPT as C, SYNTHETIC_CONCEPTS } from './synthetic-vocabulary';
import type { DatasetBuilder } from './warehouse-engine';

export interface GeneratorOptions {
  persons: number;
  seed: number;
}

/** The last day of the synthetic record: fixed, so the same seed gives the same data on any day. */
export const SYNTHETIC_END_DATE = '2025-06-30';
export const MAX_SYNTHETIC_PERSONS = 10_000_000;

const sqlString = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * Conditions: concept, the probability of having it (SQL over the person's columns), and how many
 * records a person with it has at most. Order matters: later ones depend on earlier ones (comorbidity).
 */
const CONDITIONS: { flag: string; concept: string; probability: string; maxRecords: number }[] = [
  { flag: 'obese', concept: `${C.obesity}`, probability: '0.04 + 0.30 * adult', maxRecords: 2 },
  {
    flag: 't2dm', concept: `${C.type2Diabetes}`, maxRecords: 4,
    probability: `CASE WHEN age < 20 THEN 0.002 ELSE 0.02 + 0.22 * adult + 0.10 * obese + CASE WHEN race IN (${C.black}, ${C.asian}) OR ethnicity = ${C.hispanic} THEN 0.04 ELSE 0 END END`,
  },
  { flag: 't1dm', concept: `${C.type1Diabetes}`, probability: 'CASE WHEN t2dm = 1 THEN 0 ELSE 0.005 END', maxRecords: 4 },
  { flag: 'htn', concept: `${C.essentialHypertension}`, probability: 'CASE WHEN age < 20 THEN 0.01 ELSE 0.05 + 0.50 * adult + 0.15 * t2dm + 0.10 * obese END', maxRecords: 4 },
  { flag: 'lipid', concept: `${C.hyperlipidemia}`, probability: '0.03 + 0.35 * adult + 0.15 * t2dm', maxRecords: 3 },
  {
    flag: 'ckd', concept: `CASE WHEN r(91, person_id) < 0.4 THEN ${C.ckdStage3} ELSE ${C.ckd} END`, maxRecords: 3,
    probability: '0.005 + 0.10 * adult + 0.12 * t2dm + 0.08 * htn',
  },
  { flag: 'asthma', concept: `${C.asthma}`, probability: '0.08', maxRecords: 3 },
  { flag: 'depression', concept: `${C.depression}`, probability: `0.07 + CASE WHEN gender = ${C.female} THEN 0.05 ELSE 0 END`, maxRecords: 2 },
  {
    flag: 'mi', concept: `CASE WHEN r(92, person_id) < 0.7 THEN ${C.acuteMyocardialInfarction} ELSE ${C.myocardialInfarction} END`, maxRecords: 1,
    probability: 'CASE WHEN age < 35 THEN 0 ELSE 0.01 + 0.06 * adult + 0.03 * t2dm + 0.03 * htn END',
  },
];

/** Drugs given for a condition, with the share of patients who get them. */
const TREATMENTS: [flag: string, drug: number, share: number, daysSupply: number][] = [
  ['t2dm', C.metformin, 0.8, 90], ['t2dm', C.insulinGlargine, 0.25, 30], ['t2dm', C.atorvastatin, 0.4, 90],
  ['t1dm', C.insulinGlargine, 1, 30], ['htn', C.lisinopril, 0.55, 90], ['htn', C.amlodipine, 0.3, 90],
  ['htn', C.hydrochlorothiazide, 0.25, 90], ['lipid', C.atorvastatin, 0.7, 90], ['ckd', C.lisinopril, 0.4, 90],
  ['asthma', C.albuterol, 0.85, 30], ['depression', C.sertraline, 0.5, 30], ['mi', C.aspirin, 0.9, 90], ['mi', C.atorvastatin, 0.8, 90],
];

/** Labs: who gets them (SQL), how many at most, the value as mean ± sd (SQL), its unit and plausible bounds. */
const LABS: { concept: number; who: string; maxCount: number; mean: string; sd: string; unit: number; low: number; high: number }[] = [
  { concept: C.hba1c, who: 't1dm = 1 OR t2dm = 1 OR (age >= 18 AND r(301, person_id) < 0.3)', maxCount: 5, mean: 'CASE WHEN t1dm = 1 OR t2dm = 1 THEN 7.8 ELSE 5.4 END', sd: 'CASE WHEN t1dm = 1 OR t2dm = 1 THEN 1.3 ELSE 0.35 END', unit: C.percent, low: 4, high: 14 },
  { concept: C.glucose, who: 'age >= 18 AND (t2dm = 1 OR t1dm = 1 OR r(302, person_id) < 0.4)', maxCount: 3, mean: 'CASE WHEN t1dm = 1 OR t2dm = 1 THEN 160 ELSE 95 END', sd: 'CASE WHEN t1dm = 1 OR t2dm = 1 THEN 40 ELSE 12 END', unit: C.mgPerDl, low: 50, high: 450 },
  { concept: C.systolic, who: 'age >= 18', maxCount: 2, mean: 'CASE WHEN htn = 1 THEN 145 ELSE 120 END', sd: '14', unit: C.mmHg, low: 80, high: 220 },
  { concept: C.diastolic, who: 'age >= 18', maxCount: 2, mean: 'CASE WHEN htn = 1 THEN 90 ELSE 77 END', sd: '9', unit: C.mmHg, low: 40, high: 130 },
  { concept: C.bmi, who: 'age >= 18', maxCount: 1, mean: 'CASE WHEN obese = 1 THEN 34 ELSE 25 END', sd: '3.5', unit: C.kgPerM2, low: 14, high: 60 },
  { concept: C.creatinine, who: 'ckd = 1 OR (age >= 18 AND r(303, person_id) < 0.3)', maxCount: 2, mean: 'CASE WHEN ckd = 1 THEN 2.0 ELSE 0.9 END', sd: 'CASE WHEN ckd = 1 THEN 0.6 ELSE 0.2 END', unit: C.mgPerDl, low: 0.3, high: 9 },
  { concept: C.cholesterol, who: 'lipid = 1 OR (age >= 18 AND r(304, person_id) < 0.4)', maxCount: 2, mean: 'CASE WHEN lipid = 1 THEN 240 ELSE 185 END', sd: '30', unit: C.mgPerDl, low: 90, high: 400 },
];

const PROCEDURES: [who: string, concept: number, maxCount: number][] = [
  ['ckd = 1 AND r(401, person_id) < 0.08', C.hemodialysis, 5],
  ['(t1dm = 1 OR t2dm = 1) AND r(402, person_id) < 0.4', C.retinalExam, 2],
  ['htn = 1 AND r(403, person_id) < 0.5', C.electrocardiogram, 2],
  ['mi = 1 AND r(404, person_id) < 0.4', C.angioplasty, 1],
];

/**
 * A synthetic OMOP CDM dataset, made entirely in DuckDB SQL. Every random draw is a hash of the
 * seed, the person and the purpose, so the same seed gives the same rows whatever the parallelism,
 * and row ids are computed from the person id (no sort needed).
 */
export function syntheticDataset(options: GeneratorOptions): DatasetBuilder {
  const { persons, seed } = options;
  if (!Number.isInteger(persons) || persons < 1 || persons > MAX_SYNTHETIC_PERSONS) {
    throw new Error(`persons must be an integer from 1 to ${MAX_SYNTHETIC_PERSONS}`);
  }
  if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 31) throw new Error('seed must be an integer from 0 to 2^31');
  return async (db: DuckDBConnection, schema: string) => {
    const s = (table: string) => `"${schema}"."${table}"`;
    const end = `DATE '${SYNTHETIC_END_DATE}'`;
    // r(k, id): a uniform draw in [0, 1) for purpose k and person (or row) id.
    await db.run(`CREATE OR REPLACE TEMP MACRO r(k, id) AS (hash(${seed}, k, id) % 1000003) / 1000003.0`);
    // A normal draw (Box-Muller) from two uniform ones.
    await db.run(`CREATE OR REPLACE TEMP MACRO nrm(k, id) AS sqrt(-2 * ln(greatest(r(k, id), 1e-9))) * cos(2 * pi() * r(k + 5000, id))`);

    await insertVocabulary(db, s);

    const flagColumns = CONDITIONS.map((c, i) => `, CAST(r(${100 + i}, person_id) < ${c.probability} AS INTEGER) AS ${c.flag}`);
    await db.run(`CREATE OR REPLACE TEMP TABLE base AS
      SELECT i AS person_id,
        CASE WHEN r(1, i) < 0.49 THEN ${C.male} ELSE ${C.female} END AS gender,
        CAST(CASE WHEN r(2, i) < 0.22 THEN r(3, i) * 18 WHEN r(2, i) < 0.60 THEN 18 + r(3, i) * 27
             WHEN r(2, i) < 0.85 THEN 45 + r(3, i) * 20 WHEN r(2, i) < 0.97 THEN 65 + r(3, i) * 20 ELSE 85 + r(3, i) * 15 END AS INTEGER) AS age,
        CASE WHEN r(4, i) < 0.60 THEN ${C.white} WHEN r(4, i) < 0.73 THEN ${C.black} WHEN r(4, i) < 0.79 THEN ${C.asian}
             WHEN r(4, i) < 0.80 THEN ${C.nativeAmerican} WHEN r(4, i) < 0.803 THEN ${C.pacificIslander} ELSE 0 END AS race,
        CASE WHEN r(5, i) < 0.18 THEN ${C.hispanic} ELSE ${C.notHispanic} END AS ethnicity,
        CAST(r(6, i) * 364 AS INTEGER) AS birth_offset
      FROM range(1, ${persons + 1}) t(i)`);
    // Each condition's flag depends on those before it (comorbidity): add them one by one.
    await db.run(`CREATE OR REPLACE TEMP TABLE people AS SELECT *, least(greatest(age - 18, 0), 60) / 60.0 AS adult FROM base`);
    for (const flag of flagColumns) await db.run(`CREATE OR REPLACE TEMP TABLE people AS SELECT *${flag} FROM people`);
    await db.run(`ALTER TABLE people ADD COLUMN birth DATE`);
    await db.run(`UPDATE people SET birth = CAST(${end} - INTERVAL (age) YEAR - INTERVAL (birth_offset) DAY AS DATE)`);
    // Death: more likely when old and ill; in the last year of the record.
    await db.run(`ALTER TABLE people ADD COLUMN death DATE`);
    await db.run(`UPDATE people SET death = CAST(${end} - INTERVAL (CAST(r(7, person_id) * 360 AS INTEGER)) DAY AS DATE)
      WHERE r(8, person_id) < CASE WHEN age >= 65 THEN 0.03 + (age - 65) * 0.004 + 0.04 * mi + 0.02 * ckd ELSE 0.001 + 0.01 * mi END`);
    // The record starts at most 15 years back (or at birth) and ends at death or the end date.
    await db.run(`ALTER TABLE people ADD COLUMN record_start DATE`);
    await db.run(`UPDATE people SET record_start = greatest(birth, CAST(${end} - INTERVAL 15 YEAR AS DATE))`);
    const recordDays = `greatest(datediff('day', record_start, coalesce(death, ${end})), 1)`;

    await db.run(`INSERT INTO ${s('person')} (person_id, gender_concept_id, year_of_birth, month_of_birth, day_of_birth, birth_datetime,
        race_concept_id, ethnicity_concept_id, person_source_value, gender_source_value, race_source_value, ethnicity_source_value)
      SELECT person_id, gender, year(birth), month(birth), day(birth), CAST(birth AS TIMESTAMP), race, ethnicity,
        'SYN' || person_id, CASE WHEN gender = ${C.male} THEN 'M' ELSE 'F' END, CAST(race AS VARCHAR), CAST(ethnicity AS VARCHAR)
      FROM people`);
    await db.run(`INSERT INTO ${s('observation_period')} SELECT person_id, person_id, record_start, coalesce(death, ${end}), ${C.ehr} FROM people`);
    await db.run(`INSERT INTO ${s('death')} (person_id, death_date, death_datetime, death_type_concept_id, cause_concept_id)
      SELECT person_id, death, CAST(death AS TIMESTAMP), ${C.ehr},
        CASE WHEN mi = 1 THEN ${C.acuteMyocardialInfarction} WHEN ckd = 1 THEN ${C.ckd} WHEN t2dm = 1 THEN ${C.type2Diabetes} END
      FROM people WHERE death IS NOT NULL`);

    // Conditions: onset somewhere in the record (children's conditions after birth), then follow-up records.
    const onsets = CONDITIONS.map((c, i) =>
      `SELECT person_id, ${i} AS k, ${c.concept} AS concept, CAST(record_start + INTERVAL (CAST(r(${200 + i}, person_id) * ${recordDays} * 0.8 AS INTEGER)) DAY AS DATE) AS onset,
         1 + CAST(r(${220 + i}, person_id) * ${c.maxRecords} AS INTEGER) AS records, record_start, coalesce(death, ${end}) AS last_day, ${c.flag === 'mi' ? 1 : 0} AS acute
       FROM people WHERE ${c.flag} = 1`,
    );
    await db.run(`CREATE OR REPLACE TEMP TABLE onsets AS ${onsets.join(' UNION ALL ')}`);
    await db.run(`INSERT INTO ${s('condition_occurrence')} (condition_occurrence_id, person_id, condition_concept_id, condition_start_date,
        condition_start_datetime, condition_end_date, condition_type_concept_id, condition_source_value)
      SELECT person_id * 100 + k * 5 + j, person_id, concept, d, CAST(d AS TIMESTAMP), CASE WHEN acute = 1 THEN d + 7 END, ${C.ehr}, CAST(concept AS VARCHAR)
      FROM (SELECT *, CAST(onset + INTERVAL (CAST(j * r(240 + j, person_id * 16 + k) * greatest(datediff('day', onset, last_day), 0) / 4 AS INTEGER)) DAY AS DATE) AS d
            FROM onsets, range(0, 5) t(j) WHERE j < records)`);

    const treatments = TREATMENTS.map(([flag, drug, share, days], i) =>
      `SELECT o.person_id, ${i} AS k, ${drug} AS drug, o.onset, o.last_day, ${days} AS days
       FROM onsets o WHERE o.k = ${CONDITIONS.findIndex((c) => c.flag === flag)} AND r(${500 + i}, o.person_id) < ${share}`,
    );
    await db.run(`INSERT INTO ${s('drug_exposure')} (drug_exposure_id, person_id, drug_concept_id, drug_exposure_start_date,
        drug_exposure_start_datetime, drug_exposure_end_date, drug_type_concept_id, refills, quantity, days_supply, drug_source_value)
      SELECT person_id * 1000 + k * 10 + j, person_id, drug, d, CAST(d AS TIMESTAMP), d + days, ${C.ehr}, 0, days, days, CAST(drug AS VARCHAR)
      FROM (SELECT *, CAST(onset + INTERVAL (CAST(j * days * 1.1 + r(520 + j, person_id * 32 + k) * 20 AS INTEGER)) DAY AS DATE) AS d,
              1 + CAST(r(540, person_id * 32 + k) * 6 AS INTEGER) AS fills
            FROM (${treatments.join(' UNION ALL ')}), range(0, 6) t(j))
      WHERE j < fills AND d <= last_day`);

    const labs = LABS.map((l, i) =>
      `SELECT person_id * 100 + ${i * 10} + j AS id, person_id, ${l.concept} AS concept,
         CAST(record_start + INTERVAL (CAST(r(${600 + i}, person_id * 8 + j) * ${recordDays} AS INTEGER)) DAY AS DATE) AS d,
         round(least(greatest(${l.mean} + ${l.sd} * nrm(${620 + i}, person_id * 8 + j), ${l.low}), ${l.high}), 1) AS v, ${l.unit} AS unit
       FROM people, range(0, ${l.maxCount}) t(j) WHERE (${l.who}) AND j < 1 + CAST(r(${640 + i}, person_id) * ${l.maxCount} AS INTEGER)`,
    );
    const unitName = (id: number) => SYNTHETIC_CONCEPTS.find((c) => c.id === id)!.code;
    await db.run(`INSERT INTO ${s('measurement')} (measurement_id, person_id, measurement_concept_id, measurement_date, measurement_datetime,
        measurement_type_concept_id, value_as_number, unit_concept_id, measurement_source_value, unit_source_value)
      SELECT id, person_id, concept, d, CAST(d AS TIMESTAMP), ${C.ehr}, v, unit, CAST(concept AS VARCHAR),
        CASE unit ${[C.percent, C.mgPerDl, C.mmHg, C.kgPerM2].map((u) => `WHEN ${u} THEN ${sqlString(unitName(u))}`).join(' ')} END
      FROM (${labs.join(' UNION ALL ')})`);

    const procedures = PROCEDURES.map(([who, concept, max], i) =>
      `SELECT person_id * 100 + ${i * 10} + j AS id, person_id, ${concept} AS concept,
         CAST(record_start + INTERVAL (CAST(r(${700 + i}, person_id * 8 + j) * ${recordDays} AS INTEGER)) DAY AS DATE) AS d
       FROM people, range(0, ${max}) t(j) WHERE (${who}) AND j < 1 + CAST(r(${720 + i}, person_id) * ${max} AS INTEGER)`,
    );
    await db.run(`INSERT INTO ${s('procedure_occurrence')} (procedure_occurrence_id, person_id, procedure_concept_id, procedure_date,
        procedure_datetime, procedure_type_concept_id, quantity)
      SELECT id, person_id, concept, d, CAST(d AS TIMESTAMP), ${C.ehr}, 1 FROM (${procedures.join(' UNION ALL ')})`);

    await db.run(`INSERT INTO ${s('observation')} (observation_id, person_id, observation_concept_id, observation_date,
        observation_datetime, observation_type_concept_id)
      SELECT person_id, person_id, CASE WHEN r(801, person_id) < 0.6 THEN ${C.neverSmoker} WHEN r(801, person_id) < 0.85 THEN ${C.formerSmoker} ELSE ${C.currentSmoker} END,
        d, CAST(d AS TIMESTAMP), ${C.ehr}
      FROM (SELECT *, CAST(record_start + INTERVAL (CAST(r(802, person_id) * ${recordDays} AS INTEGER)) DAY AS DATE) AS d FROM people WHERE age >= 16)`);

    // Visits: outpatient ones for everybody, emergency and inpatient stays for some (more when ill).
    await db.run(`INSERT INTO ${s('visit_occurrence')} (visit_occurrence_id, person_id, visit_concept_id, visit_start_date,
        visit_start_datetime, visit_end_date, visit_end_datetime, visit_type_concept_id)
      SELECT person_id * 20 + j, person_id, v, d, CAST(d AS TIMESTAMP), d + stay, CAST(d + stay AS TIMESTAMP), ${C.ehr}
      FROM (SELECT person_id, j,
              CASE WHEN j = 0 AND r(901, person_id) < 0.04 + 0.2 * mi + 0.03 * ckd THEN ${C.inpatient}
                   WHEN j = 1 AND r(902, person_id) < 0.12 + 0.05 * asthma THEN ${C.emergency} ELSE ${C.outpatient} END AS v,
              CAST(record_start + INTERVAL (CAST(r(903, person_id * 16 + j) * ${recordDays} AS INTEGER)) DAY AS DATE) AS d,
              1 + CAST(r(904, person_id) * 4 + 2 * t2dm + 2 * htn AS INTEGER) AS visits
            FROM people, range(0, 12) t(j)) v0,
           LATERAL (SELECT CASE WHEN v = ${C.inpatient} THEN 1 + CAST(r(905, person_id) * 7 AS INTEGER) ELSE 0 END AS stay)
      WHERE j < visits OR (j < 2 AND v <> ${C.outpatient})`);

    for (const temp of ['base', 'people', 'onsets']) await db.run(`DROP TABLE IF EXISTS ${temp}`);
    await buildMissingEras(db, schema);
  };
}

async function insertVocabulary(db: DuckDBConnection, s: (table: string) => string): Promise<void> {
  const concepts = SYNTHETIC_CONCEPTS.map(
    (c) =>
      `(${c.id}, ${sqlString(c.name)}, ${sqlString(c.domain)}, ${sqlString(c.vocabulary)}, ${sqlString(c.conceptClass)}, ${c.standard ? sqlString(c.standard) : 'NULL'}, ${sqlString(c.code)}, DATE '1970-01-01', DATE '2099-12-31', NULL)`,
  );
  await db.run(`INSERT INTO ${s('concept')} VALUES ${concepts.join(', ')}`);
  const ancestors = ancestorRows(SYNTHETIC_CONCEPTS).map((r) => `(${r.join(', ')})`);
  await db.run(`INSERT INTO ${s('concept_ancestor')} VALUES ${ancestors.join(', ')}`);
  const relationships = SYNTHETIC_CONCEPTS.flatMap((c) =>
    (c.parents ?? []).flatMap((p) => [`(${c.id}, ${p}, 'Is a', DATE '1970-01-01', DATE '2099-12-31', NULL)`, `(${p}, ${c.id}, 'Subsumes', DATE '1970-01-01', DATE '2099-12-31', NULL)`]),
  );
  await db.run(`INSERT INTO ${s('concept_relationship')} VALUES ${relationships.join(', ')}`);
  const vocabularies = [...new Set(SYNTHETIC_CONCEPTS.map((c) => c.vocabulary))];
  await db.run(`INSERT INTO ${s('vocabulary')} VALUES ${vocabularies.map((v) => `(${sqlString(v)}, ${sqlString(v)}, NULL, 'synthetic', 0)`).join(', ')}`);
  const domains = [...new Set(SYNTHETIC_CONCEPTS.map((c) => c.domain))];
  await db.run(`INSERT INTO ${s('domain')} VALUES ${domains.map((d) => `(${sqlString(d)}, ${sqlString(d)}, 0)`).join(', ')}`);
}
