/**
 * The AI assistants that send visitors: a chat answer's link, followed by a person. Each is known by
 * the hosts its web app sends as the referrer and by the `utm_source` values it appends to the links
 * it cites (ChatGPT tags every cited link `utm_source=chatgpt.com`; Perplexity and Copilot send their
 * host as the referrer). Our own list, from the assistants' public web addresses.
 */

/** One assistant: its name, the host it is counted under as a source, and what identifies it. */
export interface AiAssistant {
  /** The product ('ChatGPT'). */
  name: string
  /** The host visits are attributed to in the referrers report when only a UTM tag names it. */
  domain: string
  /** Referrer hosts, matched with their subdomains. */
  hosts: readonly string[]
  /** `utm_source` values, lower case (hosts are matched with their subdomains, too). */
  sources: readonly string[]
}

/** The assistants recognised. */
export const AI_ASSISTANTS: readonly AiAssistant[] = [
  {
    name: 'ChatGPT',
    domain: 'chatgpt.com',
    hosts: ['chatgpt.com', 'chat.openai.com'],
    sources: ['chatgpt', 'openai'],
  },
  { name: 'Perplexity', domain: 'perplexity.ai', hosts: ['perplexity.ai'], sources: ['perplexity'] },
  { name: 'Claude', domain: 'claude.ai', hosts: ['claude.ai'], sources: ['claude', 'anthropic'] },
  {
    name: 'Gemini',
    domain: 'gemini.google.com',
    hosts: ['gemini.google.com', 'bard.google.com'],
    sources: ['gemini', 'bard'],
  },
  {
    name: 'Copilot',
    domain: 'copilot.microsoft.com',
    hosts: ['copilot.microsoft.com', 'copilot.cloud.microsoft', 'm365.cloud.microsoft'],
    sources: ['copilot'],
  },
  { name: 'DeepSeek', domain: 'chat.deepseek.com', hosts: ['chat.deepseek.com'], sources: ['deepseek'] },
  { name: 'Le Chat', domain: 'chat.mistral.ai', hosts: ['chat.mistral.ai'], sources: ['mistral', 'lechat'] },
  { name: 'Grok', domain: 'grok.com', hosts: ['grok.com'], sources: ['grok'] },
  { name: 'Meta AI', domain: 'meta.ai', hosts: ['meta.ai'], sources: ['meta.ai', 'metaai'] },
  { name: 'You.com', domain: 'you.com', hosts: ['you.com'], sources: ['you.com'] },
  { name: 'Phind', domain: 'phind.com', hosts: ['phind.com'], sources: ['phind'] },
  { name: 'Poe', domain: 'poe.com', hosts: ['poe.com'], sources: ['poe'] },
  { name: 'Kimi', domain: 'kimi.com', hosts: ['kimi.com', 'kimi.moonshot.cn'], sources: ['kimi'] },
]

/**
 * The assistant a referrer host or a `utm_source` names.
 *
 * @param referrerHost lower-case host of the referrer, '' when none.
 * @param source `utm_source`, lower case and trimmed, '' when none.
 * @returns the assistant, or null. The referrer is consulted first.
 */
export function aiAssistantOf(referrerHost: string, source: string): AiAssistant | null {
  if (referrerHost !== '') {
    const byHost = AI_ASSISTANTS.find((assistant) => matchesHost(referrerHost, assistant.hosts))
    if (byHost !== undefined) return byHost
  }
  if (source === '') return null
  const host = source.replace(/^https?:\/\//, '').replace(/[/.]+$/, '')
  return (
    AI_ASSISTANTS.find(
      (assistant) => assistant.sources.includes(host) || matchesHost(host, assistant.hosts),
    ) ?? null
  )
}

function matchesHost(host: string, hosts: readonly string[]): boolean {
  return hosts.some((domain) => host === domain || host.endsWith(`.${domain}`))
}
