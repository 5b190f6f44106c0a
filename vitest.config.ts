import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two cores: files run in parallel forks; each PostgreSQL-backed file uses its own schema.
    pool: 'forks',
    // Finds or starts PostgreSQL and Redis, and gives the run a temp folder of its own (README, "Tests").
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/each-file.ts'],
  },
});
