import path from 'node:path';
import type { NextConfig } from 'next';
import { STATIC_SECURITY_HEADERS } from './src/lib/security/page-security-headers';
import { writeAntdStylesheet } from './src/application/antd-styles/write-stylesheet';

const repoRoot = path.join(__dirname, '..', '..');

// antd's styles come from a stylesheet written for the product's theme before any build or server starts.
writeAntdStylesheet();

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // For weight analysis only (SOURCE_MAPS=1 next build): maps are not shipped otherwise.
  productionBrowserSourceMaps: process.env.SOURCE_MAPS === '1',
  // Without it Turbopack serves the first HTML unstyled and React reports hydration error #418.
  bundlePagesRouterDependencies: true,
  // The antd controls of the query builder import deep into `antd/es`.
  transpilePackages: ['@hdp/contract', '@react-querybuilder/antd'],
  // API paths end with a slash (`/api/v1/users/me/`); Next must not redirect them away.
  skipTrailingSlashRedirect: true,
  outputFileTracingRoot: repoRoot,
  turbopack: { root: repoRoot },
  // Types are checked by `npm run typecheck` (part of `npm test`, with `next typegen` first); a build
  // that only runs the app (`npm start`, the browser suite) need not check them again (~40 s on 2 cores).
  typescript: { ignoreBuildErrors: true },
  // Turbopack's build cache is written after every build (~20 s, 230 MB) for the next one to reuse: a
  // fresh checkout (CI, a first `npm start`) never reuses it, and builds here take about a minute without it.
  experimental: { turbopackFileSystemCacheForBuild: false },
  // The Content-Security-Policy needs a nonce per answer: src/proxy.ts sets it.
  async headers() {
    return [{ source: '/:path*', headers: [...STATIC_SECURITY_HEADERS] }];
  },
};

export default nextConfig;
