/**
 * The small vocabulary of the synthetic dataset. Standard OMOP concept ids where the concept is a
 * well-known one (SNOMED, RxNorm, LOINC, UCUM); local concepts (ids above 2,000,000,000, as the CDM
 * reserves for them) for the grouping classes.
 */
export interface VocabularyConcept {
  id: number;
  name: string;
  domain: string;
  vocabulary: string;
  conceptClass: string;
  code: string;
  standard: 'S' | 'C' | null;
  /** Parents in the hierarchy (concept_ancestor is the transitive closure of these). */
  parents?: number[];
}

export const CONCEPT = {
  male: 8507, female: 8532,
  white: 8527, black: 8516, asian: 8515, nativeAmerican: 8657, pacificIslander: 8557,
  hispanic: 38003563, notHispanic: 38003564,
  inpatient: 9201, outpatient: 9202, emergency: 9203,
  ehr: 32817,
  diabetes: 201820, type2Diabetes: 201826, type1Diabetes: 201254,
  cardiovascularDisorder: 134057, hypertensiveDisorder: 316866, essentialHypertension: 320128,
  myocardialInfarction: 4329847, acuteMyocardialInfarction: 312327,
  ckd: 46271022, ckdStage3: 443601, hyperlipidemia: 432867, obesity: 433736, asthma: 317009, depression: 440383,
  metformin: 1503297, insulinGlargine: 1502905, lisinopril: 1308216, amlodipine: 1332418, hydrochlorothiazide: 974166,
  atorvastatin: 1545958, albuterol: 1154343, sertraline: 739138, aspirin: 1112807,
  antidiabetics: 2_000_000_001, antihypertensives: 2_000_000_002, lipidModifying: 2_000_000_003,
  hba1c: 3004410, glucose: 3004501, systolic: 3004249, diastolic: 3012888, bmi: 3038553, creatinine: 3016723, cholesterol: 3027114,
  percent: 8554, mgPerDl: 8840, mmHg: 8876, kgPerM2: 9531,
  hemodialysis: 2_000_001_001, retinalExam: 2_000_001_002, electrocardiogram: 2_000_001_003, angioplasty: 2_000_001_004,
  neverSmoker: 2_000_002_001, formerSmoker: 2_000_002_002, currentSmoker: 2_000_002_003,
} as const;

const C = CONCEPT;
const condition = (id: number, name: string, code: string, parents?: number[]): VocabularyConcept => ({
  id, name, domain: 'Condition', vocabulary: 'SNOMED', conceptClass: 'Clinical Finding', code, standard: 'S', parents,
});
const drug = (id: number, name: string, code: string, parents: number[]): VocabularyConcept => ({
  id, name, domain: 'Drug', vocabulary: 'RxNorm', conceptClass: 'Ingredient', code, standard: 'S', parents,
});
const lab = (id: number, name: string, code: string): VocabularyConcept => ({
  id, name, domain: 'Measurement', vocabulary: 'LOINC', conceptClass: 'Lab Test', code, standard: 'S',
});
const local = (id: number, name: string, domain: string, conceptClass: string, code: string, parents?: number[]): VocabularyConcept => ({
  id, name, domain, vocabulary: 'HDP', conceptClass, code, standard: 'S', parents,
});

export const SYNTHETIC_CONCEPTS: readonly VocabularyConcept[] = [
  { id: C.male, name: 'MALE', domain: 'Gender', vocabulary: 'Gender', conceptClass: 'Gender', code: 'M', standard: 'S' },
  { id: C.female, name: 'FEMALE', domain: 'Gender', vocabulary: 'Gender', conceptClass: 'Gender', code: 'F', standard: 'S' },
  { id: C.white, name: 'White', domain: 'Race', vocabulary: 'Race', conceptClass: 'Race', code: '5', standard: 'S' },
  { id: C.black, name: 'Black or African American', domain: 'Race', vocabulary: 'Race', conceptClass: 'Race', code: '3', standard: 'S' },
  { id: C.asian, name: 'Asian', domain: 'Race', vocabulary: 'Race', conceptClass: 'Race', code: '2', standard: 'S' },
  { id: C.nativeAmerican, name: 'American Indian or Alaska Native', domain: 'Race', vocabulary: 'Race', conceptClass: 'Race', code: '1', standard: 'S' },
  { id: C.pacificIslander, name: 'Native Hawaiian or Other Pacific Islander', domain: 'Race', vocabulary: 'Race', conceptClass: 'Race', code: '4', standard: 'S' },
  { id: C.hispanic, name: 'Hispanic or Latino', domain: 'Ethnicity', vocabulary: 'Ethnicity', conceptClass: 'Ethnicity', code: 'Hispanic', standard: 'S' },
  { id: C.notHispanic, name: 'Not Hispanic or Latino', domain: 'Ethnicity', vocabulary: 'Ethnicity', conceptClass: 'Ethnicity', code: 'Not Hispanic', standard: 'S' },
  { id: C.inpatient, name: 'Inpatient Visit', domain: 'Visit', vocabulary: 'Visit', conceptClass: 'Visit', code: 'IP', standard: 'S' },
  { id: C.outpatient, name: 'Outpatient Visit', domain: 'Visit', vocabulary: 'Visit', conceptClass: 'Visit', code: 'OP', standard: 'S' },
  { id: C.emergency, name: 'Emergency Room Visit', domain: 'Visit', vocabulary: 'Visit', conceptClass: 'Visit', code: 'ER', standard: 'S' },
  { id: C.ehr, name: 'EHR', domain: 'Type Concept', vocabulary: 'Type Concept', conceptClass: 'Type Concept', code: 'OMOP4976890', standard: 'S' },
  condition(C.diabetes, 'Diabetes mellitus', '73211009'),
  condition(C.type2Diabetes, 'Type 2 diabetes mellitus', '44054006', [C.diabetes]),
  condition(C.type1Diabetes, 'Type 1 diabetes mellitus', '46635009', [C.diabetes]),
  condition(C.cardiovascularDisorder, 'Disorder of cardiovascular system', '49601007'),
  condition(C.hypertensiveDisorder, 'Hypertensive disorder', '38341003', [C.cardiovascularDisorder]),
  condition(C.essentialHypertension, 'Essential hypertension', '59621000', [C.hypertensiveDisorder]),
  condition(C.myocardialInfarction, 'Myocardial infarction', '22298006', [C.cardiovascularDisorder]),
  condition(C.acuteMyocardialInfarction, 'Acute myocardial infarction', '57054005', [C.myocardialInfarction]),
  condition(C.ckd, 'Chronic kidney disease', '709044004'),
  condition(C.ckdStage3, 'Chronic kidney disease stage 3', '433144002', [C.ckd]),
  condition(C.hyperlipidemia, 'Hyperlipidemia', '55822004'),
  condition(C.obesity, 'Obesity', '414916001'),
  condition(C.asthma, 'Asthma', '195967001'),
  condition(C.depression, 'Depressive disorder', '35489007'),
  local(C.antidiabetics, 'Drugs used in diabetes', 'Drug', 'ATC 2nd', 'A10'),
  local(C.antihypertensives, 'Agents acting on the renin-angiotensin system and other antihypertensives', 'Drug', 'ATC 2nd', 'C09'),
  local(C.lipidModifying, 'Lipid modifying agents', 'Drug', 'ATC 2nd', 'C10'),
  drug(C.metformin, 'metformin', '6809', [C.antidiabetics]),
  drug(C.insulinGlargine, 'insulin glargine', '274783', [C.antidiabetics]),
  drug(C.lisinopril, 'lisinopril', '29046', [C.antihypertensives]),
  drug(C.amlodipine, 'amlodipine', '17767', [C.antihypertensives]),
  drug(C.hydrochlorothiazide, 'hydrochlorothiazide', '5487', [C.antihypertensives]),
  drug(C.atorvastatin, 'atorvastatin', '83367', [C.lipidModifying]),
  drug(C.albuterol, 'albuterol', '435', []),
  drug(C.sertraline, 'sertraline', '36437', []),
  drug(C.aspirin, 'aspirin', '1191', []),
  lab(C.hba1c, 'Hemoglobin A1c/Hemoglobin.total in Blood', '4548-4'),
  lab(C.glucose, 'Glucose [Mass/volume] in Serum or Plasma', '2345-7'),
  lab(C.systolic, 'Systolic blood pressure', '8480-6'),
  lab(C.diastolic, 'Diastolic blood pressure', '8462-4'),
  lab(C.bmi, 'Body mass index (BMI) [Ratio]', '39156-5'),
  lab(C.creatinine, 'Creatinine [Mass/volume] in Serum or Plasma', '2160-0'),
  lab(C.cholesterol, 'Cholesterol [Mass/volume] in Serum or Plasma', '2093-3'),
  { id: C.percent, name: 'percent', domain: 'Unit', vocabulary: 'UCUM', conceptClass: 'Unit', code: '%', standard: 'S' },
  { id: C.mgPerDl, name: 'milligram per deciliter', domain: 'Unit', vocabulary: 'UCUM', conceptClass: 'Unit', code: 'mg/dL', standard: 'S' },
  { id: C.mmHg, name: 'millimeter mercury column', domain: 'Unit', vocabulary: 'UCUM', conceptClass: 'Unit', code: 'mm[Hg]', standard: 'S' },
  { id: C.kgPerM2, name: 'kilogram per square meter', domain: 'Unit', vocabulary: 'UCUM', conceptClass: 'Unit', code: 'kg/m2', standard: 'S' },
  local(C.hemodialysis, 'Hemodialysis', 'Procedure', 'Procedure', '302497006'),
  local(C.retinalExam, 'Examination of retina', 'Procedure', 'Procedure', '6615001'),
  local(C.electrocardiogram, 'Electrocardiographic procedure', 'Procedure', 'Procedure', '29303009'),
  local(C.angioplasty, 'Percutaneous transluminal coronary angioplasty', 'Procedure', 'Procedure', '11101003'),
  local(C.neverSmoker, 'Never smoked tobacco', 'Observation', 'Clinical Finding', '266919005'),
  local(C.formerSmoker, 'Ex-smoker', 'Observation', 'Clinical Finding', '8517006'),
  local(C.currentSmoker, 'Smoker', 'Observation', 'Clinical Finding', '77176002'),
];

/** concept_ancestor rows: every concept is its own ancestor (level 0), plus the transitive closure of `parents`. */
export function ancestorRows(concepts: readonly VocabularyConcept[]): [number, number, number, number][] {
  const parentsOf = new Map(concepts.map((c) => [c.id, c.parents ?? []]));
  const rows: [number, number, number, number][] = [];
  for (const c of concepts) {
    const levels = new Map<number, [number, number]>([[c.id, [0, 0]]]);
    const walk = (id: number, depth: number) => {
      for (const parent of parentsOf.get(id) ?? []) {
        const [min, max] = levels.get(parent) ?? [Infinity, 0];
        levels.set(parent, [Math.min(min, depth), Math.max(max, depth)]);
        walk(parent, depth + 1);
      }
    };
    walk(c.id, 1);
    for (const [ancestor, [min, max]] of levels) rows.push([ancestor, c.id, min, max]);
  }
  return rows;
}
