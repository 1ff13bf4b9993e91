// Prints the plain summary line CI reads, from vitest's JSON report. A failing step before the tests
// (lint, type check) or a suite that could not run counts as one more failure.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

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
  // The failures are named again here, next to the summary, so the end of a long log says which they were.
  for (const file of results.testResults) {
    const name = relative(process.cwd(), file.name);
    if (file.status === 'failed' && file.assertionResults.length === 0) {
      console.log(`failed: ${name}: ${firstLine(file.message)}`);
    }
    for (const test of file.assertionResults.filter((result) => result.status === 'failed')) {
      console.log(`failed: ${name} > ${test.fullName}: ${firstLine(test.failureMessages[0])}`);
    }
  }
}
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);

function firstLine(text) {
  return (text ?? '').split('\n', 1)[0].slice(0, 300);
}
