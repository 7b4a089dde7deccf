import { describe, expect, it } from 'vitest'
import { type ClickLike, createHistoryStore, type HistoryTarget, isPlainClick } from './navigation'

function fakeWindow() {
  const entries = ['/']
  let index = 0
  const popListeners = new Set<() => void>()
  const location = { pathname: '/', search: '', hash: '' }
  const show = () => {
    const url = new URL(entries[index] ?? '/', 'http://x')
    location.pathname = url.pathname
    location.search = url.search
  }
  const target: HistoryTarget = {
    location,
    history: {
      pushState: (_d, _u, url) => {
        entries.splice(index + 1, entries.length, url)
        index++
        show()
      },
      replaceState: (_d, _u, url) => {
        entries[index] = url
        show()
      },
    },
    addEventListener: (_type, listener) => popListeners.add(listener),
    removeEventListener: (_type, listener) => popListeners.delete(listener),
  }
  const back = () => {
    index--
    show()
    for (const listener of popListeners) listener()
  }
  return { target, entries, back, popListeners }
}

describe('history store', () => {
  it('pushes, replaces and notifies subscribers, including on back', () => {
    const w = fakeWindow()
    const store = createHistoryStore(w.target)
    const seen: string[] = []
    const unsubscribe = store.subscribe(() => seen.push(store.snapshot()))

    store.navigate('/sites/1?x=2')
    store.navigate('/sites/1/settings')
    store.navigate('/sites/1/settings') // same location: no new entry
    store.navigate('/sign-in', { replace: true })
    expect(w.entries).toEqual(['/', '/sites/1?x=2', '/sign-in'])
    w.back()
    expect(seen).toEqual(['/sites/1?x=2', '/sites/1/settings', '/sign-in', '/sites/1?x=2'])

    unsubscribe()
    expect(w.popListeners.size).toBe(0)
  })
})

describe('isPlainClick', () => {
  const click: ClickLike = {
    button: 0,
    metaKey: false,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    defaultPrevented: false,
  }

  it('takes over plain left clicks only', () => {
    expect(isPlainClick(click, {})).toBe(true)
    expect(isPlainClick(click, { target: '_self' })).toBe(true)
    expect(isPlainClick({ ...click, button: 1 }, {})).toBe(false)
    expect(isPlainClick({ ...click, metaKey: true }, {})).toBe(false)
    expect(isPlainClick({ ...click, ctrlKey: true }, {})).toBe(false)
    expect(isPlainClick({ ...click, shiftKey: true }, {})).toBe(false)
    expect(isPlainClick({ ...click, defaultPrevented: true }, {})).toBe(false)
    expect(isPlainClick(click, { target: '_blank' })).toBe(false)
    expect(isPlainClick(click, { download: true })).toBe(false)
  })
})
