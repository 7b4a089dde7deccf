/**
 * Agents named, categorised and verified: the AI crawlers and agents of isbot's crawler fixture
 * (`fixtures/isbot-crawlers.yml`, isbot 5.2, copied from the workplace's shared/data) each named with
 * its operator and category; every user agent of that fixture classified as some bot; a person's
 * browser as none; verification only inside the operator's published ranges.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { classifyAgent } from './classify-agent.js'

/** The fixture's user agents, read with plain code (`Name:` then `  - agent` lines). */
const FIXTURE_AGENTS: string[] = readFileSync(
  new URL('./fixtures/isbot-crawlers.yml', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line.startsWith('  - '))
  .map((line) =>
    line
      .slice(4)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .replace(/\\"/g, '"'),
  )

/** [token in the user agent, name, operator, category]: the AI agents in the fixture. */
const AI_AGENTS = [
  ['ChatGPT-User', 'ChatGPT-User', 'OpenAI', 'ai_assistant'],
  ['GPTBot', 'GPTBot', 'OpenAI', 'ai_training'],
  ['OAI-SearchBot', 'OAI-SearchBot', 'OpenAI', 'ai_search'],
  ['ClaudeBot', 'ClaudeBot', 'Anthropic', 'ai_training'],
  ['anthropic-ai', 'anthropic-ai', 'Anthropic', 'ai_training'],
  ['claude-code/', 'Claude Code', 'Anthropic', 'ai_assistant'],
  ['PerplexityBot', 'PerplexityBot', 'Perplexity', 'ai_search'],
  ['Perplexity-User', 'Perplexity-User', 'Perplexity', 'ai_assistant'],
  ['CCBot', 'CCBot', 'Common Crawl', 'ai_training'],
  ['Bytespider', 'Bytespider', 'ByteDance', 'ai_training'],
  ['Amazonbot', 'Amazonbot', 'Amazon', 'ai_training'],
  ['meta-externalagent', 'meta-externalagent', 'Meta', 'ai_training'],
  ['meta-externalfetcher', 'meta-externalfetcher', 'Meta', 'ai_assistant'],
  ['Google-Extended', 'Google-Extended', 'Google', 'ai_training'],
  ['omgili', 'omgili', 'Webz.io', 'ai_training'],
] as const

describe('classifyAgent', () => {
  it.each(AI_AGENTS)(
    'names %s in the fixture with its operator and category',
    (token, name, operator, category) => {
      const agents = FIXTURE_AGENTS.filter((agent) => agent.toLowerCase().includes(token.toLowerCase()))
      expect(agents.length).toBeGreaterThan(0)
      for (const agent of agents) {
        expect([agent, classifyAgent(agent, '')]).toEqual([
          agent,
          { name, operator, category, verified: false },
        ])
      }
    },
  )

  it("classifies every user agent of isbot's crawler fixture as a bot", () => {
    expect(FIXTURE_AGENTS.length).toBeGreaterThan(600)
    const people = FIXTURE_AGENTS.filter((agent) => classifyAgent(agent, '') === null)
    expect(people).toEqual([])
  })

  it("leaves a person's browser unclassified", () => {
    const chrome =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
    expect(classifyAgent(chrome, '81.2.69.142')).toBeNull()
  })

  it("verifies an agent only from its operator's published ranges, IPv4 and IPv6", () => {
    const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
    expect(classifyAgent(googlebot, '66.249.66.1')?.verified).toBe(true)
    expect(classifyAgent(googlebot, '2001:4860:4801:10::1')?.verified).toBe(true)
    expect(classifyAgent(googlebot, '::ffff:66.249.66.1')?.verified).toBe(true)
    expect(classifyAgent(googlebot, '203.0.113.9')?.verified).toBe(false)
    expect(classifyAgent(googlebot, 'crawl.example.net')?.verified).toBe(false)
    const bingbot = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'
    expect(classifyAgent(bingbot, '157.55.39.10')).toEqual({
      name: 'bingbot',
      operator: 'Microsoft',
      category: 'search_engine',
      verified: true,
    })
    // An agent whose operator publishes no ranges is only ever claimed.
    const ahrefs = 'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)'
    expect(classifyAgent(ahrefs, '66.249.66.1')).toMatchObject({
      name: 'AhrefsBot',
      category: 'seo',
      verified: false,
    })
  })
})
