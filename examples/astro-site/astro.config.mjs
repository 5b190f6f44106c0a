// The example Astro site: static pages from Folio's demo space in English and German (docs/astro.md).
// SITE_ORIGIN is where the site is served (forms come back there); ASTRO_OUT_DIR and ASTRO_CACHE_DIR let a test
// build into a directory of its own (the cache holds the content store and the sync cursor between builds).
import { defineConfig } from 'astro/config';

export default defineConfig({
  site: process.env.SITE_ORIGIN ?? 'http://127.0.0.1:4321',
  outDir: process.env.ASTRO_OUT_DIR ?? './dist',
  cacheDir: process.env.ASTRO_CACHE_DIR ?? './node_modules/.astro',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  vite: { build: { reportCompressedSize: false } },
});
