import { describe, expect, it } from 'vitest'
import { neutralizeReplayUrls } from './replay-urls'

const MARKER = '/api/replay-css-marker-1'

/** A full snapshot: `<html><head><style>..</style><link></head><body style><img><svg><image>`. */
const snapshot = () => ({
  type: 2,
  timestamp: 1,
  data: {
    node: {
      type: 0,
      id: 1,
      childNodes: [
        {
          type: 2,
          id: 2,
          tagName: 'html',
          attributes: {},
          childNodes: [
            {
              type: 2,
              id: 3,
              tagName: 'head',
              attributes: {},
              childNodes: [
                {
                  type: 2,
                  id: 4,
                  tagName: 'style',
                  attributes: {},
                  childNodes: [{ type: 3, id: 5, textContent: `a{background:url(${MARKER})}` }],
                },
                {
                  type: 2,
                  id: 6,
                  tagName: 'link',
                  attributes: { rel: 'stylesheet', href: MARKER, _cssText: `@import "${MARKER}";` },
                  childNodes: [],
                },
                {
                  type: 2,
                  id: 7,
                  tagName: 'meta',
                  attributes: { 'http-equiv': 'refresh', content: `0;url=${MARKER}` },
                  childNodes: [],
                },
              ],
            },
            {
              type: 2,
              id: 8,
              tagName: 'body',
              attributes: { style: `background:url(${MARKER})` },
              childNodes: [
                { type: 2, id: 9, tagName: 'img', attributes: { src: MARKER, alt: 'x' }, childNodes: [] },
                {
                  type: 2,
                  id: 10,
                  tagName: 'img',
                  attributes: { src: 'data:image/png;base64,AA' },
                  childNodes: [],
                },
                { type: 2, id: 11, tagName: 'a', attributes: { href: '/pricing' }, childNodes: [] },
                {
                  type: 2,
                  id: 12,
                  tagName: 'image',
                  attributes: { href: MARKER },
                  childNodes: [],
                  isSVG: true,
                },
                {
                  type: 2,
                  id: 13,
                  tagName: 'rect',
                  attributes: { fill: `url(${MARKER}#paint)`, mask: 'url(#local)', width: '10' },
                  childNodes: [],
                  isSVG: true,
                },
                {
                  type: 2,
                  id: 14,
                  tagName: 'iframe',
                  attributes: { srcdoc: `<img src="${MARKER}">` },
                  childNodes: [],
                },
              ],
            },
          ],
        },
      ],
    },
  },
})

describe('neutralizeReplayUrls', () => {
  it('empties the URLs of a full snapshot that would be fetched, and keeps the rest', () => {
    const [event] = neutralizeReplayUrls([snapshot()])
    const text = JSON.stringify(event)
    expect(text).not.toContain('/api/')
    expect(text).toContain('"href":"/pricing"') // a link is not fetched by showing it
    expect(text).toContain('data:image/png;base64,AA')
    expect(text).toContain('"alt":"x"')
    expect(text).toContain('a{background:url()}')
    expect(text).toContain('"mask":"url(#local)"')
    expect(text).toContain('"fill":"url()"')
  })

  it('empties URLs in mutations, inserted rules, declarations, adopted sheets and fonts', () => {
    const events = neutralizeReplayUrls([
      snapshot(),
      {
        type: 3,
        timestamp: 2,
        data: {
          source: 0,
          adds: [
            {
              parentId: 8,
              nextId: null,
              node: { type: 2, id: 20, tagName: 'style', attributes: {}, childNodes: [] },
            },
            {
              parentId: 20,
              nextId: null,
              node: { type: 3, id: 21, textContent: `b{cursor:url(${MARKER}),auto}` },
            },
          ],
          attributes: [
            { id: 9, attributes: { src: MARKER } },
            { id: 8, attributes: { style: { background: [`url(${MARKER})`, 'important'], color: 'red' } } },
            { id: 6, attributes: { href: MARKER } },
          ],
          texts: [{ id: 5, value: `a{background:url(${MARKER})}` }],
          removes: [],
        },
      },
      {
        type: 3,
        timestamp: 3,
        data: { source: 8, id: 4, adds: [{ rule: `c{background:url(${MARKER})}`, index: 0 }] },
      },
      { type: 3, timestamp: 4, data: { source: 8, styleId: 1, replaceSync: `@import url(${MARKER});` } },
      {
        type: 3,
        timestamp: 5,
        data: { source: 13, id: 4, index: [0], set: { property: 'background', value: `url(${MARKER})` } },
      },
      {
        type: 3,
        timestamp: 6,
        data: {
          source: 15,
          id: 1,
          styleIds: [1],
          styles: [{ styleId: 1, rules: [{ rule: `d{mask:url(${MARKER})}`, index: 0 }] }],
        },
      },
      {
        type: 3,
        timestamp: 7,
        data: { source: 10, family: 'f', fontSource: `url(${MARKER})`, buffer: false },
      },
      {
        type: 3,
        timestamp: 8,
        data: {
          source: 0,
          adds: [],
          removes: [],
          attributes: [],
          texts: [{ id: 21, value: `e{background:url(${MARKER})}` }],
        },
      },
    ])
    const text = JSON.stringify(events)
    expect(text).not.toContain('/api/')
    expect(text).toContain('"color":"red"')
    expect(text).toContain('"important"')
  })

  it('changes nothing more when run again', () => {
    const once = JSON.stringify(neutralizeReplayUrls([snapshot()]))
    expect(JSON.stringify(neutralizeReplayUrls(JSON.parse(once)))).toBe(once)
  })
})
