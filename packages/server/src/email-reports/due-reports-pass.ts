/**
 * The e-mail reports' schedule as the server runs it: `sendDue` at start and then every
 * EMAIL_REPORT_INTERVAL_MS (config; default the constant below) through `workers/periodic-job.ts`,
 * started only when mail is configured. With Redis (several processes) a pass runs only while it
 * holds the lock `pl:lock:email-reports` (under the configured key prefix); a pass that finds it
 * taken skips. Each period's row in `email_report_send` keeps a
 * period from going out twice even so.
 */
import type { Redis } from 'ioredis'
import { withRedisLock } from '../workers/redis-lock.js'
import type { DueReportsResult, EmailReportSender } from './email-report-sender.js'

/** How often the schedule looks for due reports: a period's mail leaves within this of its end. */
export const EMAIL_REPORT_INTERVAL_MS = 10 * 60_000
/** The lock's key (Redis adds the client's key prefix). */
export const EMAIL_REPORTS_LOCK = 'pl:lock:email-reports'
const LOCK_MS = 15 * 60_000

/**
 * A pass of the schedule, under the lock when `redis` is given.
 * @returns what it sent, or null when another process held the lock
 */
export function dueReportsPass(
  sender: EmailReportSender,
  redis?: Redis,
): () => Promise<DueReportsResult | null> {
  return () => (redis ? withRedisLock(redis, EMAIL_REPORTS_LOCK, LOCK_MS, sender.sendDue) : sender.sendDue())
}
