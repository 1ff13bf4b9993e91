import { defineConfig } from 'vitest/config';
import { textImports } from './test/support/text-imports.ts';

export default defineConfig({
  plugins: [textImports()],
  test: {
    include: ['shared/**/*.test.ts', 'functions/**/*.test.ts', 'infra/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // A file spends much of its time waiting on DynamoDB Local, a server or a child process, so one file
    // per core keeps the cores busy; vitest's default of one fewer leaves a single file running on 2 cores.
    maxWorkers: '100%',
    env: { LOG_LEVEL: 'silent', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    // A test waits on the one DynamoDB Local every file shares. Tests that walk a list page by page were
    // seen to take past 30 s (paging's walks, sensitive-fields' reads) where they take a second or two
    // alone, while export-delta imported a whole tenant into a table with a stream (see ensureTable), which
    // slows every write of DynamoDB Local; no test table has one now that needs none, and the margin stays.
    testTimeout: 60_000,
    // A file's beforeAll copies the seeded template into its own table: 2 to 5 s, but seen to take 58, 67,
    // 78 s and once over 120 beside that same import.
    hookTimeout: 240_000,
    reporters: ['default', 'json'],
    outputFile: { json: '.reports/vitest.json' },
  },
});
