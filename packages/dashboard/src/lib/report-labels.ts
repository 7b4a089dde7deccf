/**
 * Words for report values: filter chips ('Country is Germany', 'Property plan is pro'), breakdown values as people read them
 * (country and language names from `Intl.DisplayNames`, no flags), and the breakdowns of the
 * overview with the filter a click on one of their rows adds.
 */
import type { FilterParameter, PropertyFilterType, ReportFilter } from '@pathlight/protocol'
import { type BreakdownName, breakdownDimensions } from '@pathlight/protocol/enums'
import { propertyKeyOf } from '@pathlight/protocol/query-rules'
import { isPropertyFilter } from './property-filters'

export const filterLabels: Record<FilterParameter, string> = {
  pathname: 'Page',
  hostname: 'Hostname',
  referrer: 'Referrer',
  channel: 'Channel',
  country: 'Country',
  region: 'Region',
  city: 'City',
  browser: 'Browser',
  operating_system: 'OS',
  device_type: 'Device',
  language: 'Language',
  event_name: 'Event',
  utm_source: 'UTM source',
  utm_medium: 'UTM medium',
  utm_campaign: 'UTM campaign',
  utm_term: 'UTM term',
  utm_content: 'UTM content',
  entry_page: 'Entry page',
  exit_page: 'Exit page',
}

const typeWords: Record<PropertyFilterType, string> = {
  equals: 'is',
  not_equals: 'is not',
  contains: 'contains',
  not_contains: 'does not contain',
  starts_with: 'starts with',
  regex: 'matches',
  is_set: 'is set',
  is_not_set: 'is not set',
}

let regionNames: Intl.DisplayNames | null | undefined
let languageNames: Intl.DisplayNames | null | undefined

const displayNames = (type: 'region' | 'language'): Intl.DisplayNames | null => {
  try {
    return new Intl.DisplayNames(['en'], { type, fallback: 'code' })
  } catch {
    return null
  }
}

/** 'Germany' for 'DE'; the code itself when unknown; 'Unknown' for ''. */
export function countryName(code: string): string {
  if (code === '') return 'Unknown'
  regionNames ??= displayNames('region')
  try {
    return regionNames?.of(code.toUpperCase()) ?? code
  } catch {
    return code
  }
}

/** 'English (United States)' for 'en-US'; the tag itself when unknown; 'Unknown' for ''. */
export function languageName(tag: string): string {
  if (tag === '') return 'Unknown'
  languageNames ??= displayNames('language')
  try {
    return languageNames?.of(tag) ?? tag
  } catch {
    return tag
  }
}

/** A value of `parameter` as shown: names for countries and languages, '(none)' for empty values. */
export function valueLabel(parameter: FilterParameter, value: string): string {
  if (parameter === 'country') return countryName(value)
  if (parameter === 'language') return languageName(value)
  if (value === '') {
    return parameter === 'region' || parameter === 'city' || parameter === 'browser' ? 'Unknown' : '(none)'
  }
  return value
}

/**
 * 'Country is Germany', 'Page is /a or /b'; a custom property's: 'Property plan is pro',
 * 'Property plan is set' ('(none)' for the empty value, which events without the key have).
 */
export function filterText(filter: ReportFilter): string {
  if (isPropertyFilter(filter)) {
    const values = filter.value.map((v) => (v === '' ? '(none)' : v)).join(' or ')
    const text = `Property ${propertyKeyOf(filter.parameter)} ${typeWords[filter.type]}`
    return values === '' ? text : `${text} ${values}`
  }
  const values = filter.value.map((v) => valueLabel(filter.parameter, v)).join(' or ')
  return `${filterLabels[filter.parameter]} ${typeWords[filter.type]} ${values}`
}

/** A breakdown of the overview: the API name, its labels, the filter its rows add. */
export interface BreakdownDef {
  name: string
  /** The column header ('UTM source'). */
  label: string
  /** The tab ('Source'). */
  tab: string
  parameter: FilterParameter
  /** Which count the rows show and rank by. */
  metric: 'visitors' | 'pageviews'
}

/** A breakdown's tab, its labels and filter from the protocol's `breakdownDimensions`. */
const def = (name: BreakdownName): BreakdownDef => {
  const { label, tab, filter, metric } = breakdownDimensions[name]
  return { name, label, tab, parameter: filter, metric }
}

/** The overview's breakdown cards, each with its tabs. */
export const breakdownCards = {
  pages: {
    title: 'Pages',
    tabs: [def('pages'), def('entry_pages'), def('exit_pages')],
  },
  sources: {
    title: 'Sources',
    tabs: [def('channels'), def('referrers'), def('utm_source'), def('utm_medium'), def('utm_campaign')],
  },
  locations: {
    title: 'Locations',
    tabs: [def('countries'), def('regions'), def('cities')],
  },
  devices: {
    title: 'Devices',
    tabs: [def('browsers'), def('operating_systems'), def('device_types'), def('languages')],
  },
} as const satisfies Record<string, { title: string; tabs: readonly BreakdownDef[] }>
