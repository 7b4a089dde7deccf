/**
 * Migration 015's carry-over of the alert rules' existing addresses, on SQLite and PostgreSQL: a
 * member's address becomes `active`, any other `pending` with no confirmation mail queued, each with
 * its own link token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../../../testing/test-instance.js'
import { backfillAlertRecipients } from './015-alert-recipients.js'

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('migration 015 on %s', (_name, postgres) => {
  let t: TestInstance
  beforeAll(async () => {
    t = await openTestInstance({ postgres, workers: false })
  }, 60_000)
  afterAll(() => t?.close())

  it("carries each rule's addresses over: members active, others pending", async () => {
    const { site, userId } = await t.seed()
    const db = t.services.metadata.db
    const owner = await db
      .selectFrom('user')
      .select('email')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    const rule = await t.services.alerts.rules.create(site.siteId, userId, {
      name: 'Old rule',
      metric: 'pageviews',
      windowMinutes: 60,
      comparison: 'above',
      threshold: 10,
      emailRecipients: ['outsider@example.com', owner.email],
    })
    // As before the migration: the list alone, no recipient rows.
    await db.deleteFrom('alert_recipient').execute()
    await backfillAlertRecipients(db as unknown as Parameters<typeof backfillAlertRecipients>[0])
    const rows = await db
      .selectFrom('alert_recipient')
      .select(['email', 'status', 'token', 'confirmation_sent_at'])
      .where('rule_id', '=', rule.id)
      .orderBy('email')
      .execute()
    expect(rows.map((r) => [r.email, r.status, r.confirmation_sent_at])).toEqual(
      [
        ['outsider@example.com', 'pending', null],
        [owner.email, 'active', null],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    )
    expect(new Set(rows.map((r) => r.token)).size).toBe(2)
    expect(await db.selectFrom('mail_message').select('id').execute()).toEqual([])
  })
})
