/**
 * Imported first by the web app: zod parses without compiling parsers at run time. The pages'
 * Content-Security-Policy has no 'unsafe-eval', and zod's probe for it (`new Function`, caught)
 * is still reported by the browser as a policy violation. The API keeps compiled parsers.
 *
 * zod keeps its configuration on `globalThis.__zod_globalConfig` (shared by every copy of zod in a
 * page) and adopts an object already there. Setting it directly, rather than through `z.config`,
 * keeps zod itself out of the code every page loads first: only the pages that parse load it.
 */
const page = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
page.__zod_globalConfig = Object.assign(page.__zod_globalConfig ?? {}, { jitless: true });

export {};
