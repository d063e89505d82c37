import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A throwaway PostgreSQL for the store tests, when the server binaries are there (CI: required).
    globalSetup: ['./test/support/postgres-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
})
