/** A zod failure as one line of an import answer: `<field>: <problem>` of its first issue. */
export function firstIssue(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0]
  if (!issue) return 'invalid record'
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message
}
