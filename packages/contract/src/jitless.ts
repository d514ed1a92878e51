import { z } from 'zod';

/**
 * Imported first by the web app: zod parses without compiling parsers at run time. The pages'
 * Content-Security-Policy has no 'unsafe-eval', and zod's probe for it (`new Function`, caught)
 * is still reported by the browser as a policy violation. The API keeps compiled parsers.
 */
z.config({ jitless: true });
