/**
 * A vitest reporter for a pass that must run everything it was given (the server pass,
 * `clickhouse-server-pass.ts`): a skipped or todo test, or a file that collected no test, fails the
 * run, naming each, instead of passing quietly.
 */
import type { Reporter, TestModule } from 'vitest/node'

export default class NoSkippedTestsReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const problems: string[] = []
    for (const module of testModules) {
      let count = 0
      for (const test of module.children.allTests()) {
        count++
        const state = test.result().state
        if (state === 'skipped' || state === 'pending')
          problems.push(`${module.moduleId}: "${test.fullName}" was skipped`)
      }
      if (count === 0) problems.push(`${module.moduleId}: no test ran`)
    }
    if (problems.length === 0) return
    console.error(`This pass must run every test it lists; these did not run:\n  ${problems.join('\n  ')}`)
    process.exitCode = 1
  }
}
