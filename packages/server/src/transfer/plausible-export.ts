/**
 * Plausible's CSV export (the ZIP its Settings → Imports & Exports makes) as imported daily totals:
 * its files `imported_<table>[_<start>_<end>].csv`, each with a header row and one row per day and
 * value, turned into rows of `imported_days` (`storage/events/migrations/016-imported-days.ts`).
 *
 * Files and columns read (others ignored; a missing count column reads 0):
 * - `imported_visitors`: `date`, `visitors`, `pageviews`, `bounces`, `visits`, `visit_duration` -> the
 *   day's totals (dimension `visitors`). Required: without it the ZIP is refused.
 * - `imported_pages`: `page` -> `pages` (`visitors`, `pageviews`, `visits`).
 * - `imported_entry_pages`: `entry_page` -> `entry_pages` (`entrances` as visits).
 * - `imported_exit_pages`: `exit_page` -> `exit_pages` (`exits` as visits).
 * - `imported_sources`: `referrer` -> `referrers` (its host, `www.` folded; rows without one are
 *   direct), `utm_source`, `utm_medium`, `utm_campaign` -> those breakdowns (empty values skipped).
 * - `imported_locations`: `country` (ISO 3166-1 alpha-2) -> `countries`. Regions (ISO 3166-2 codes)
 *   and cities (GeoNames ids) are not kept: Pathlight's are names.
 * - `imported_devices`: `device` -> `device_types` (lower case).
 * - `imported_browsers`: `browser` -> `browsers`; `imported_operating_systems`: `operating_system`
 *   -> `operating_systems` (named as live tracking names them); versions are not kept.
 * - `imported_custom_events`: `name` -> `custom_events` (`visitors`, `events`).
 * A bad row is an error naming the file, its line (from 2: the header is line 1) and the column; the
 * others are kept.
 */
import { unzipSync } from 'fflate'
import { AppError } from '../shared/errors.js'
import { csvRecords } from './csv-records.js'

/** One row of `imported_days` without its site. */
export interface ImportedDay {
  dimension: string
  /** `YYYY-MM-DD`. */
  day: string
  value: string
  visitors: number
  visits: number
  pageviews: number
  bounces: number
  visit_duration: number
  events: number
}

export type PlausibleEntry = { rows: ImportedDay[] } | { file: string; line: number; error: string }

/** Bytes one file of the ZIP may hold once decompressed (a ZIP bomb is refused before it inflates). */
export const PLAUSIBLE_MAX_FILE_BYTES = 512 * 1024 * 1024

type Count = Exclude<keyof ImportedDay, 'dimension' | 'day' | 'value'>
type Get = (column: string) => string

interface Table {
  /** Columns a row must have (besides `date` and the counts). */
  required: readonly string[]
  /** Count column in the file -> count of the row (default: the same name). */
  counts: Partial<Record<Count, string>>
  /** The dimension rows one CSV row gives: dimension and value ('' values skipped). */
  values: (get: Get) => [dimension: string, value: string][]
}

const SESSION_COUNTS = {
  visitors: 'visitors',
  visits: 'visits',
  pageviews: 'pageviews',
  bounces: 'bounces',
  visit_duration: 'visit_duration',
} as const

const OPERATING_SYSTEMS: Readonly<Record<string, string>> = {
  mac: 'Mac OS',
  macos: 'Mac OS',
  'gnu/linux': 'Linux',
  'chrome os': 'Chromium OS',
}
const BROWSERS: Readonly<Record<string, string>> = {
  'microsoft edge': 'Edge',
  'samsung internet': 'Samsung Browser',
}

/** The tables read, by file name (without its dates). */
export const PLAUSIBLE_TABLES: Readonly<Record<string, Table>> = {
  imported_visitors: { required: [], counts: SESSION_COUNTS, values: () => [['visitors', '']] },
  imported_pages: {
    required: ['page'],
    counts: { visitors: 'visitors', pageviews: 'pageviews', visits: 'visits' },
    values: (get) => [['pages', get('page')]],
  },
  imported_entry_pages: {
    required: ['entry_page'],
    counts: { ...SESSION_COUNTS, visits: 'entrances' },
    values: (get) => [['entry_pages', get('entry_page')]],
  },
  imported_exit_pages: {
    required: ['exit_page'],
    counts: { ...SESSION_COUNTS, visits: 'exits' },
    values: (get) => [['exit_pages', get('exit_page')]],
  },
  imported_sources: {
    required: ['source'],
    counts: SESSION_COUNTS,
    values: (get) => [
      ['referrers', referrerHost(get('referrer'))],
      ['utm_source', get('utm_source')],
      ['utm_medium', get('utm_medium')],
      ['utm_campaign', get('utm_campaign')],
    ],
  },
  imported_locations: {
    required: ['country'],
    counts: SESSION_COUNTS,
    values: (get) => [['countries', get('country').toUpperCase()]],
  },
  imported_devices: {
    required: ['device'],
    counts: SESSION_COUNTS,
    values: (get) => [['device_types', get('device').toLowerCase()]],
  },
  imported_browsers: {
    required: ['browser'],
    counts: SESSION_COUNTS,
    values: (get) => [['browsers', named(BROWSERS, get('browser'))]],
  },
  imported_operating_systems: {
    required: ['operating_system'],
    counts: SESSION_COUNTS,
    values: (get) => [['operating_systems', named(OPERATING_SYSTEMS, get('operating_system'))]],
  },
  imported_custom_events: {
    required: ['name'],
    counts: { visitors: 'visitors', events: 'events' },
    values: (get) => [['custom_events', get('name')]],
  },
}

const FILE_NAME = /^(imported_[a-z_]+?)(?:_\d{8}_\d{8})?\.csv$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const MAX_VALUE_CHARS = 2048

/**
 * The ZIP's files that are Plausible tables, by table (a table split over several files, as exports of
 * several periods are, gives each file).
 * @throws AppError 400 when the body is not a ZIP, holds no `imported_visitors` file, or a file would
 *   inflate past `PLAUSIBLE_MAX_FILE_BYTES`
 */
export function plausibleFiles(zip: Uint8Array): { table: string; name: string; data: Uint8Array }[] {
  let files: Record<string, Uint8Array>
  try {
    files = unzipSync(zip, {
      filter: (file) => {
        const table = tableOf(file.name)
        if (table === undefined) return false
        if (file.originalSize > PLAUSIBLE_MAX_FILE_BYTES) {
          throw new AppError(400, `${file.name}: over ${PLAUSIBLE_MAX_FILE_BYTES} bytes once decompressed`)
        }
        return true
      },
    })
  } catch (error) {
    if (error instanceof AppError) throw error
    throw new AppError(400, "The body is not a ZIP archive (Plausible's CSV export)")
  }
  const found = Object.entries(files)
    .map(([name, data]) => ({ table: tableOf(name) as string, name: baseName(name), data }))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
  if (!found.some((file) => file.table === 'imported_visitors')) {
    throw new AppError(
      400,
      "The ZIP holds no imported_visitors CSV (expected Plausible's export: imported_visitors_<start>_<end>.csv, ...)",
    )
  }
  return found
}

/**
 * The rows of one file of the export, or its bad rows' errors.
 * @throws AppError 400 when the header lacks `date`, `visitors` or the table's value column
 */
export async function* plausibleFileEntries(file: {
  table: string
  name: string
  data: Uint8Array
}): AsyncGenerator<PlausibleEntry> {
  const table = PLAUSIBLE_TABLES[file.table] as Table
  let columns: Map<string, number> | null = null
  const records = csvRecords([Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength)], {
    maxBytes: PLAUSIBLE_MAX_FILE_BYTES,
    maxRecordChars: 1024 * 1024,
  })
  for await (const { record, fields } of records) {
    if (columns === null) {
      columns = new Map(fields.map((name, at) => [name.trim().toLowerCase(), at]))
      const header = columns
      const missing = ['date', 'visitors', ...table.required].find((column) => !header.has(column))
      if (missing) throw new AppError(400, `${file.name}: the header has no ${missing} column`)
      continue
    }
    const index = columns
    const get: Get = (column) => {
      const at = index.get(column)
      return at === undefined ? '' : (fields[at] ?? '').trim()
    }
    const error = (text: string) => ({ file: file.name, line: record, error: `${file.name}: ${text}` })
    if (fields.length !== index.size) {
      yield error(`the row has ${fields.length} fields; the header has ${index.size}`)
      continue
    }
    const day = get('date')
    if (!isDate(day)) {
      yield error('date: must be a date that exists, YYYY-MM-DD')
      continue
    }
    const counts: Record<Count, number> = {
      visitors: 0,
      visits: 0,
      pageviews: 0,
      bounces: 0,
      visit_duration: 0,
      events: 0,
    }
    let bad: string | undefined
    for (const [count, column] of Object.entries(table.counts) as [Count, string][]) {
      const text = get(column)
      if (text === '' && index.has(column)) {
        bad = `${column}: must be a whole number, got an empty field`
        break
      }
      if (text !== '' && !/^\d{1,15}$/.test(text)) {
        bad = `${column}: must be a whole number, got ${text.slice(0, 20)}`
        break
      }
      counts[count] = text === '' ? 0 : Number(text)
    }
    if (bad) {
      yield error(bad)
      continue
    }
    const values = table.values(get).filter(([, value]) => value !== '' || file.table === 'imported_visitors')
    const long = values.find(([, value]) => value.length > MAX_VALUE_CHARS)
    if (long) {
      yield error(`${table.required[0]}: must be at most ${MAX_VALUE_CHARS} characters`)
      continue
    }
    yield { rows: values.map(([dimension, value]) => ({ dimension, day, value, ...counts })) }
  }
}

function tableOf(path: string): string | undefined {
  const match = FILE_NAME.exec(baseName(path))
  const table = match?.[1]
  return table !== undefined && table in PLAUSIBLE_TABLES ? table : undefined
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1)

function isDate(text: string): boolean {
  const match = DATE.exec(text)
  if (!match) return false
  const date = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text
}

/** "https://www.example.com/a" or "example.com/a" -> "example.com"; '' for none. */
function referrerHost(referrer: string): string {
  if (referrer === '') return ''
  const host = referrer
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .split(/[/?#]/)[0]
    ?.toLowerCase()
  if (!host) return ''
  return host.startsWith('www.') ? host.slice(4) : host
}

const named = (names: Readonly<Record<string, string>>, name: string) => names[name.toLowerCase()] ?? name
