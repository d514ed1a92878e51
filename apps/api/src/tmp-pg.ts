import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
for (let i = 0; i < 3; i++) {
let t = performance.now();
const a = new PGlite({ extensions: { pg_trgm } }); await a.waitReady;
console.log('init', (performance.now() - t).toFixed(0)); t = performance.now();
await migrate(drizzle(a) as never, { migrationsFolder: 'drizzle' });
console.log('migrate', (performance.now() - t).toFixed(0)); t = performance.now();
if (i == 2) { const dump = await a.dumpDataDir('gzip');
console.log('dump', (performance.now() - t).toFixed(0), dump.size); 
  t = performance.now();
  const b = new PGlite({ extensions: { pg_trgm }, loadDataDir: dump }); await b.waitReady;
  console.log('load gz', (performance.now() - t).toFixed(0)); }
await a.close();
}
