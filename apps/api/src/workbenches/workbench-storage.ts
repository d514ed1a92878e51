/**
 * The layout of a workbench's files, which notebooks mount (keep it exactly):
 *   <workbenchId>/released/                      mounted read-only into notebooks
 *   <workbenchId>/released/cohorts/<slug>-v<n>/   <table>.csv.gz, data_dictionary.csv, README.txt
 *   <workbenchId>/released/queries/<slug>.json
 *   <workbenchId>/released/documents/<file name>
 *   <workbenchId>/notebooks/<notebookId>/         notebook homes (made by the notebook runtime)
 */
export const workbenchKey = (workbenchId: string) => workbenchId;
export const releasedCohortKey = (workbenchId: string, directory: string) => `${workbenchId}/released/cohorts/${directory}`;
export const releasedQueryKey = (workbenchId: string, fileName: string) => `${workbenchId}/released/queries/${fileName}`;
export const releasedDocumentKey = (workbenchId: string, fileName: string) => `${workbenchId}/released/documents/${fileName}`;

/** A file-system-safe, readable name: lower-case letters, digits and hyphens. */
export function slugify(text: string, fallback = 'untitled'): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** `name` unless taken, else `name-2`, `name-3`, … (before the extension when `extension` is given). */
export function uniqueName(base: string, taken: ReadonlySet<string>, extension = ''): string {
  if (!taken.has(`${base}${extension}`)) return `${base}${extension}`;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}${extension}`)) return `${base}-${i}${extension}`;
}

/** A document's name as a file name in released/documents/ (no path separators or odd characters). */
export function documentFileName(name: string, taken: ReadonlySet<string>): string {
  const cleaned = name.replace(/[^\w .()+,=@-]/g, '_').replace(/^[^\w]+/, '').slice(0, 200) || 'document';
  const dot = cleaned.lastIndexOf('.');
  const [base, extension] = dot > 0 ? [cleaned.slice(0, dot), cleaned.slice(dot)] : [cleaned, ''];
  return uniqueName(base, taken, extension);
}
