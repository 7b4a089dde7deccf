/**
 * The custom property keys the goal and funnel forms suggest: the keys seen in the report's range on
 * one event's events when the event name typed is one the range has (`knownEvents`), else on every
 * custom event of the range. Each list is loaded once per loader (one loader per range and filters);
 * a failed load is forgotten, so the next request tries again.
 */

/** Loads the keys of `eventName`'s events (undefined: of every custom event), most events first. */
export type LoadPropertyKeys = (eventName: string | undefined) => Promise<string[]>

/** The keys to suggest for an event name as typed. */
export interface PropertyKeyLoader {
  /** Names what the lists are of (the range and filters): a new key means new lists. */
  key: string
  /** Which list `typed` gets: its trimmed name when the range has that event, else undefined (every event). */
  listFor(typed: string): string | undefined
  /** The keys of the list `listFor` named. */
  keys(eventName: string | undefined): Promise<string[]>
}

/** A loader over `load`, suggesting per event for the names in `knownEvents`. */
export function createPropertyKeyLoader(
  key: string,
  knownEvents: readonly string[],
  load: LoadPropertyKeys,
): PropertyKeyLoader {
  const known = new Set(knownEvents)
  const lists = new Map<string, Promise<string[]>>()
  return {
    key,
    listFor(typed) {
      const name = typed.trim()
      return known.has(name) ? name : undefined
    },
    keys(eventName) {
      const id = eventName === undefined ? '' : `:${eventName}`
      let list = lists.get(id)
      if (!list) {
        list = load(eventName)
        lists.set(id, list)
        list.catch(() => lists.delete(id))
      }
      return list
    },
  }
}
