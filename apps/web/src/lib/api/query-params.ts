/** A query-string value: arrays repeat the name (`roles=A&roles=B`); undefined and null are left out. */
export type QueryParamValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** Serialises query parameters the way the API reads them. */
export function serializeParams(params: Record<string, QueryParamValue>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly (string | number | boolean)[]) search.append(name, String(item));
    } else {
      search.append(name, String(value));
    }
  }
  return search.toString();
}

/**
 * Fills `{name}` placeholders of a contract path (`/api/v1/users/{userId}/`), encoding each
 * value; the trailing slash stays.
 */
export function pathOf(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${template}`);
    return encodeURIComponent(String(value));
  });
}
