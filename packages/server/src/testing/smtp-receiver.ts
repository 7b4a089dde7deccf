/**
 * Test support: a real SMTP server in this process (`smtp-server`), on a loopback port, that accepts
 * every message (any or no login, no TLS) and keeps each one parsed (`mailparser`): sender, recipients,
 * subject, both parts, headers. `down()` closes it (connections are refused) and `up()` listens again
 * on the same port, so tests can take the SMTP server away and bring it back. Addresses listed in
 * `reject` are refused with a permanent 550; with `refuseLogin`, every login is refused (535). Messages
 * whose subject is in `ignoreSubjects` (e.g. the address verification every sign-up mails, for tests
 * about other mail) are accepted and counted in `ignored`, not kept in `received`.
 */
import type { AddressInfo } from 'node:net'
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** A message as it arrived. */
export interface ReceivedMail {
  from: string
  to: string[]
  subject: string
  html: string
  text: string
  /** Header values by lower-case name, as text. */
  headers: Map<string, string>
  parsed: ParsedMail
}

export interface SmtpReceiver {
  /** `smtp://user:pass@127.0.0.1:<port>` (the login is accepted, not checked). */
  url: string
  port: number
  received: ReceivedMail[]
  /** The addresses refused with 550 (from `reject`; tests may change it). */
  rejecting: Set<string>
  /** Messages accepted but not kept (`ignoreSubjects`), so far. */
  readonly ignored: number
  /** Resolves once `count` messages have arrived in all (at once if they have). */
  waitFor(count: number): Promise<ReceivedMail[]>
  down(): Promise<void>
  up(): Promise<void>
  close(): Promise<void>
}

/** Start a receiver on a free loopback port. */
export async function startSmtpReceiver(
  options: { reject?: string[]; refuseLogin?: boolean; ignoreSubjects?: string[] } = {},
): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = []
  const ignoreSubjects = new Set(options.ignoreSubjects ?? [])
  let ignored = 0
  const waiting: { count: number; resolve: (mails: ReceivedMail[]) => void }[] = []
  const reject = new Set((options.reject ?? []).map((a) => a.toLowerCase()))

  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (_auth, _session, callback) =>
        options.refuseLogin
          ? callback(Object.assign(new Error('Invalid login'), { responseCode: 535 }))
          : callback(null, { user: 'test' }),
      onRcptTo: (address, _session, callback) => {
        if (reject.has(address.address.toLowerCase())) {
          const error = Object.assign(new Error('No such mailbox'), { responseCode: 550 })
          callback(error)
        } else callback()
      },
      onData: (stream, session, callback) => {
        simpleParser(stream).then(
          (parsed) => {
            if (ignoreSubjects.has(parsed.subject ?? '')) {
              ignored++
              callback()
              return
            }
            const headers = new Map<string, string>()
            for (const line of parsed.headerLines) {
              headers.set(line.key, line.line.slice(line.line.indexOf(':') + 1).trim())
            }
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: parsed.subject ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              text: parsed.text ?? '',
              headers,
              parsed,
            })
            callback()
            for (const w of waiting.filter((w) => received.length >= w.count)) {
              waiting.splice(waiting.indexOf(w), 1)
              w.resolve(received.slice())
            }
          },
          (error: Error) => callback(error),
        )
      },
    })

  let server = create()
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.server.once('error', reject)
      server.listen(port, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port))
    })
  const port = await listen(0)
  let running = true
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!running) return resolve()
      running = false
      server.close(() => resolve())
    })

  return {
    url: `smtp://user:pass@127.0.0.1:${port}`,
    port,
    received,
    rejecting: reject,
    get ignored() {
      return ignored
    },
    waitFor(count) {
      if (received.length >= count) return Promise.resolve(received.slice())
      return new Promise((resolve) => waiting.push({ count, resolve }))
    },
    down: stop,
    async up() {
      if (running) return
      server = create()
      await listen(port)
      running = true
    },
    close: stop,
  }
}
