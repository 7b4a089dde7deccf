/**
 * Who made a request, from its user agent and address: a known crawler or agent
 * (`crawler-agents.ts`), another bot (the `isbot` package's patterns), or a person (null).
 * A known agent is verified when the address lies in the ranges its operator publishes
 * (`crawler-ranges.json`, CIDR matched with ipaddr.js); otherwise it is only claimed.
 */
import ipaddr from 'ipaddr.js'
import { isbot, isbotMatch } from 'isbot'
import { ANY_AGENT, CRAWLER_AGENTS, type CrawlerCategory } from './crawler-agents.js'
import ranges from './crawler-ranges.json' with { type: 'json' }

/** A request's agent. */
export interface AgentClass {
  /** The agent's name ('GPTBot'); an unknown bot's product token ('SeznamBot'), or 'Other bot'. */
  name: string
  /** The operator, '' when unknown. */
  operator: string
  category: CrawlerCategory
  /** True when the address is in the operator's published ranges for this agent. */
  verified: boolean
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number]

const RANGES: ReadonlyMap<string, readonly Range[]> = new Map(
  Object.entries(ranges.agents).map(([name, entry]) => [
    name,
    entry.prefixes.map((prefix) => ipaddr.parseCIDR(prefix) as Range),
  ]),
)

/** The agents that publish ranges (a verified request is possible only for these). */
export const VERIFIABLE_AGENTS: ReadonlySet<string> = new Set(RANGES.keys())

/**
 * Classify one request.
 *
 * @param userAgent the User-Agent header as logged ('' when none: counted as a bot, 'No user agent').
 * @param ip the client address as logged (IPv4 or IPv6; anything else is never verified).
 * @returns the agent, or null for a person's browser.
 */
export function classifyAgent(userAgent: string, ip: string): AgentClass | null {
  if (userAgent === '') return { name: 'No user agent', operator: '', category: 'other', verified: false }
  if (ANY_AGENT.test(userAgent)) {
    const agent = CRAWLER_AGENTS.find((candidate) => candidate.pattern.test(userAgent))
    if (agent !== undefined) {
      return {
        name: agent.name,
        operator: agent.operator,
        category: agent.category,
        verified: inPublishedRanges(agent.name, ip),
      }
    }
  }
  if (!isbot(userAgent)) return null
  return { name: botName(userAgent), operator: '', category: 'other', verified: false }
}

const PRODUCT_TOKEN = /([A-Za-z][\w.-]*?(?:bot|spider|crawler|fetcher|scanner|checker))\b/i

/**
 * An unknown bot's name: its product token naming a bot ('SeznamBot/3.2' → 'SeznamBot'), else the
 * product after `compatible;` ('Ezooms'), else the leading product of a user agent that is not a
 * browser's ('Tiny Tiny RSS'), else what isbot matched.
 */
function botName(userAgent: string): string {
  const token = PRODUCT_TOKEN.exec(userAgent)?.[1]
  if (token !== undefined) return token
  const compatible = COMPATIBLE.exec(userAgent)?.[1]?.trim()
  if (compatible !== undefined && compatible !== '' && !/^MSIE\b/i.test(compatible))
    return compatible.slice(0, 60)
  if (!userAgent.startsWith('Mozilla/')) {
    const lead = /^[^/(;]+/.exec(userAgent)?.[0]?.trim()
    if (lead !== undefined && lead !== '' && /[a-z]/i.test(lead)) return lead.slice(0, 60)
  }
  const match = isbotMatch(userAgent)
    ?.replace(/[^\w .-]/g, '')
    .trim()
  return match !== undefined && match !== '' ? match.slice(0, 60) : 'Other bot'
}

const COMPATIBLE = /compatible;\s*([^;/)]+)/i

const parsed = new Map<string, ipaddr.IPv4 | ipaddr.IPv6 | null>()

/**
 * Whether `ip` lies in the ranges the operator of agent `name` publishes (false for agents without
 * published ranges and for anything that is not an IPv4 or IPv6 address).
 */
export function inPublishedRanges(name: string, ip: string): boolean {
  const list = RANGES.get(name)
  if (list === undefined) return false
  let address = parsed.get(ip)
  if (address === undefined) {
    address = ipaddr.isValid(ip) ? ipaddr.process(ip) : null
    if (parsed.size > 100_000) parsed.clear()
    parsed.set(ip, address)
  }
  if (address === null) return false
  const kind = address.kind()
  return list.some(([network, bits]) => network.kind() === kind && address.match(network, bits))
}
