// Prints the plain summary line CI reads, from vitest's JSON report. A failing step before the tests
// (lint, type check) or a suite that could not run counts as one more failure.
import { existsSync, readFileSync } from 'node:fs';

const status = Number(process.argv[2] ?? 1);
const report = '.reports/vitest.json';
let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed = results.numPassedTests;
  failed = results.numFailedTests;
  skipped = results.numPendingTests + results.numTodoTests;
  failed += results.testResults.filter(
    (file) => file.status === 'failed' && file.assertionResults.length === 0,
  ).length;
}
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
