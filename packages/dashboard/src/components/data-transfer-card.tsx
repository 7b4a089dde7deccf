/**
 * Settings → Import and export: download the site's events as NDJSON (whole history or a range), and,
 * for admins and owners, upload a file (an export of Pathlight, raw events as NDJSON, Umami's
 * `website_event` CSV, Google Analytics 4's BigQuery rows, or Plausible's export ZIP) with upload
 * progress and the server's summary, and remove the imported daily totals of a Plausible import.
 */
import type { ImportResult } from '@pathlight/protocol'
import { removeImported } from '@pathlight/protocol/addresses'
import { useState } from 'react'
import { type ApiError, transport } from '../api/client'
import { createClient } from '../api/contract-client'
import { type ImportFormat, uploadImport } from '../api/upload-import'
import { Field } from './field'
import { FormError } from './form-error'

export function DataTransferCard({ siteId, canAdmin }: { siteId: number; canAdmin: boolean }) {
  const [startDate, setStartDate] = useState('')
  const [endDate, setEndDate] = useState('')
  const range = new URLSearchParams()
  if (startDate) range.set('start_date', startDate)
  if (endDate) range.set('end_date', endDate)
  const exportUrl = `/api/sites/${encodeURIComponent(String(siteId))}/export${range.size > 0 ? `?${range}` : ''}`
  return (
    <section className="card" aria-labelledby="transfer-title">
      <h2 id="transfer-title">Import and export</h2>
      <p>
        The export holds every stored event, one JSON object per line, oldest first. Importing it into a site
        (here or on another Pathlight) restores the same figures; lines the site already holds are skipped.
      </p>
      <div className="row">
        <Field label="From (optional)">
          {(control) => (
            <input
              {...control}
              type="date"
              value={startDate}
              onChange={(e) => setStartDate(e.target.value)}
            />
          )}
        </Field>
        <Field label="To (optional)">
          {(control) => (
            <input {...control} type="date" value={endDate} onChange={(e) => setEndDate(e.target.value)} />
          )}
        </Field>
      </div>
      <div className="form-actions">
        <a className="button button-secondary" href={exportUrl} download>
          Download events (NDJSON)
        </a>
      </div>
      {canAdmin && <ImportForm siteId={siteId} />}
    </section>
  )
}

function ImportForm({ siteId }: { siteId: number }) {
  const [file, setFile] = useState<File | null>(null)
  const [format, setFormat] = useState<ImportFormat>('ndjson')
  const [progress, setProgress] = useState<number | null>(null)
  const [result, setResult] = useState<ImportResult | null>(null)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const busy = progress !== null

  const upload = async () => {
    if (!file) return
    setError(undefined)
    setResult(null)
    setProgress(0)
    try {
      setResult(await uploadImport(siteId, file, format, setProgress))
    } catch (caught) {
      setError(caught as ApiError)
    } finally {
      setProgress(null)
    }
  }

  return (
    <form
      className="stack transfer-import"
      aria-label="Import events"
      onSubmit={(event) => {
        event.preventDefault()
        void upload()
      }}
    >
      <h3>Import</h3>
      <Field label="File">
        {(control) => (
          <input
            {...control}
            type="file"
            accept=".ndjson,.jsonl,.json,.csv,.zip,application/x-ndjson,text/csv,application/zip"
            onChange={(e) => {
              const chosen = e.target.files?.[0] ?? null
              setFile(chosen)
              const name = chosen?.name.toLowerCase() ?? ''
              if (name.endsWith('.csv')) setFormat('umami')
              if (name.endsWith('.zip')) setFormat('plausible')
            }}
          />
        )}
      </Field>
      <Field label="Format">
        {(control) => (
          <select {...control} value={format} onChange={(e) => setFormat(e.target.value as ImportFormat)}>
            <option value="ndjson">NDJSON: a Pathlight export, or raw events with a timestamp</option>
            <option value="umami">CSV: Umami's website_event table</option>
            <option value="ga4">NDJSON: Google Analytics 4 BigQuery export (events_ tables)</option>
            <option value="plausible">ZIP: Plausible CSV export (daily totals)</option>
          </select>
        )}
      </Field>
      {format === 'plausible' && (
        <p className="muted">
          Plausible's daily totals replace any earlier Plausible import and count in the overview and
          breakdowns for days before this site's first own event. Funnels, journeys, sessions, replays and
          filtered reports leave imported days out.
        </p>
      )}
      <FormError error={error} />
      {busy && (
        <p>
          <progress max={1} value={progress ?? 0} aria-label="Upload progress" />{' '}
          {progress !== null && progress < 1 ? `${Math.round(progress * 100)} % sent` : 'Storing…'}
        </p>
      )}
      {result && <ImportSummary result={result} unit={format === 'plausible' ? 'daily rows' : 'events'} />}
      <div className="form-actions">
        <button type="submit" className="button" disabled={!file || busy}>
          {busy ? 'Importing…' : 'Import'}
        </button>
        <RemoveImported siteId={siteId} />
      </div>
    </form>
  )
}

const call = createClient(transport)

/** "Remove imported data": deletes the daily totals of a Plausible import (imported events stay). */
function RemoveImported({ siteId }: { siteId: number }) {
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle')
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const remove = async () => {
    if (!window.confirm('Remove the imported Plausible totals of this site? Own events stay.')) return
    setError(undefined)
    setState('busy')
    try {
      await call(removeImported, { params: { siteId: String(siteId) } })
      setState('done')
    } catch (caught) {
      setError(caught as ApiError)
      setState('idle')
    }
  }
  return (
    <>
      <button
        type="button"
        className="button button-secondary"
        disabled={state === 'busy'}
        onClick={() => void remove()}
      >
        Remove imported data
      </button>
      {state === 'done' && <span role="status">Imported totals removed.</span>}
      <FormError error={error} />
    </>
  )
}

function ImportSummary({ result, unit }: { result: ImportResult; unit: string }) {
  const dropped = Object.entries(result.dropped)
  return (
    <div role="status" className="notice">
      <p>
        Imported {result.imported.toLocaleString()} {unit}
        {dropped.length > 0 &&
          `; skipped ${dropped.map(([reason, count]) => `${count.toLocaleString()} (${reason})`).join(', ')}`}
        {result.rejectedCount > 0 && `; ${result.rejectedCount.toLocaleString()} lines rejected`}.
      </p>
      {result.rejected.length > 0 && (
        <ul>
          {result.rejected.map((r) => (
            <li key={`${r.line} ${r.error}`}>
              Line {r.line}: {r.error}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
