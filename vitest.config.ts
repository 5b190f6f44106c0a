import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Files run in two forks at once; each PostgreSQL-backed file uses its own schema. Vitest's default is one
    // fewer than the cores (one fork on a 2-core machine), which left the second core idle while most files wait
    // on servers, timers and browsers.
    pool: 'forks',
    maxWorkers: 2,
    // Finds or starts PostgreSQL and Redis, and gives the run a temp folder of its own (README, "Tests").
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/each-file.ts'],
  },
});
