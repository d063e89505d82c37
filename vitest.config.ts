import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Bounds for a test that hangs, not a measure of speed: a test must pass on a two-core
    // machine at load 10, five times slower than idle and more (no test asserts a duration).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at once whatever the core count (vitest's default is cores − 1: one on a two-core CI
    // machine). Most files wait on child processes, servers and PostgreSQL, not on a core, and the
    // tests bound hangs, not speed, so they hold with a neighbour running.
    maxWorkers: 2,
    env: {
      // The service's helpers (ingest workers, helper threads, the live stream's fan-out) at the
      // normal priority: in Linux's idle class, the default, they get no CPU while other work
      // keeps every core busy, and the suite must pass on such a machine. The tests of the idle
      // class set it themselves.
      L9KIT_HELPER_PRIORITY: '0',
    },
    // A throwaway PostgreSQL for the store tests, when the server binaries are there (CI: required).
    globalSetup: ['./test/support/postgres-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
})
