import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          // The database every file's databases start from, migrated and seeded once per run.
          globalSetup: ['tests/api/global-setup.ts'],
          // One worker's modules serve every file (decision 0094): importing the app, drizzle and
          // zod took about a quarter of the run when each file had its own. Each file still has
          // its own databases, storage and app; setup.ts stops what a file started.
          isolate: false,
          setupFiles: ['tests/api/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          // As the API files (decision 0094): one worker's modules serve every file; setup.ts
          // registers the hooks each file's tests need.
          isolate: false,
          setupFiles: ['tests/e2e/setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // A browser answers in its own time: poll for up to 10 s, not vitest's default 1 s.
          expect: { poll: { timeout: 10_000 } },
        },
      },
      // Thousands of generated requests against the built server (decision 0026). Without file
      // parallelism its file joins e2e's in vitest's one-at-a-time group: the two suites' servers
      // never run side by side.
      {
        test: {
          name: 'fuzz',
          include: ['tests/fuzz/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      // Two web servers, workers and an S3 bucket on one PostgreSQL (issue 19). Like e2e and fuzz,
      // without file parallelism: it runs in their one-at-a-time group, never beside a browser test.
      {
        test: {
          name: 'despliegue',
          include: ['tests/despliegue/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/despliegue/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
