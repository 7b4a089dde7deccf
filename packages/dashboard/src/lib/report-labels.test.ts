import { breakdownNames } from '@pathlight/protocol/enums'
import { describe, expect, it } from 'vitest'
import { breakdownCards } from './report-labels'

describe('breakdownCards', () => {
  const tabs = Object.values(breakdownCards).flatMap((card) => [...card.tabs])

  it('shows every breakdown of the protocol once', () => {
    expect(tabs.map((tab) => tab.name).sort()).toEqual([...breakdownNames].sort())
  })

  it("takes each tab's labels, filter and ranking from the protocol's dimensions", () => {
    expect(tabs.find((tab) => tab.name === 'operating_systems')).toEqual({
      name: 'operating_systems',
      label: 'Operating systems',
      tab: 'OS',
      parameter: 'operating_system',
      metric: 'visitors',
    })
    expect(tabs.find((tab) => tab.name === 'pages')).toMatchObject({
      parameter: 'pathname',
      metric: 'pageviews',
    })
  })
})
