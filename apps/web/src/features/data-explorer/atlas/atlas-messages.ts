/**
 * An import refusal in plain words. The API names the place in the definition's JSON
 * (`definition.PrimaryCriteria.CriteriaList[0].DoseEra: dose eras are not supported`); the
 * sentence says what is wrong first and where second.
 */
export function refusalInWords(status: number | string, detail: string | undefined): string {
  if (!detail) return 'The definition could not be imported. Please try again.';
  const match = /^definition\.?([^:]*): (.*)$/s.exec(detail);
  const reason = match ? match[2]! : detail.replace(/^body\.?[^:]*: /, '');
  const place = match?.[1] ? ` (at ${match[1]})` : '';
  const sentence = reason.charAt(0).toUpperCase() + reason.slice(1);
  if (status === 422) return `This definition uses something the platform does not support yet: ${sentence}${place}. Nothing was imported.`;
  if (status === 413) return 'The file is too large to import.';
  return `The definition could not be read: ${sentence}${place}. Nothing was imported.`;
}

/** `celecoxibAge40.json` → `celecoxibAge40`: a file's name as the query's default name. */
export const nameFromFile = (fileName: string) => fileName.replace(/\.json$/i, '').slice(0, 200);

/** A saved query's name as a file name for its ATLAS export. */
export const exportFileName = (queryName: string) => `${queryName.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'cohort-definition'}.json`;
