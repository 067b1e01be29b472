import type { Reporter, TestModule } from 'vitest/node';

/** Ends the run with the plain line CI reads: `tests: N passed, N failed, N skipped`. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      // A file that failed outside its tests (its import, a hook) has its tests skipped: it counts as one failure.
      if (module.errors().length > 0) counts.failed += 1;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed' || state === 'failed') counts[state] += 1;
        else counts.skipped += 1;
      }
    }
    console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
