/**
 * Settings → Import and export: download the site's events as NDJSON (whole history or a range), and,
 * for admins and owners, upload a file (an export of Pathlight, raw events as NDJSON, or Umami's
 * `website_event` CSV) with upload progress and the server's summary.
 */
import type { ImportResult } from '@pathlight/protocol'
import { useState } from 'react'
import type { ApiError } from '../api/client'
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
            accept=".ndjson,.jsonl,.json,.csv,application/x-ndjson,text/csv"
            onChange={(e) => {
              const chosen = e.target.files?.[0] ?? null
              setFile(chosen)
              if (chosen?.name.toLowerCase().endsWith('.csv')) setFormat('umami')
            }}
          />
        )}
      </Field>
      <Field label="Format">
        {(control) => (
          <select {...control} value={format} onChange={(e) => setFormat(e.target.value as ImportFormat)}>
            <option value="ndjson">NDJSON: a Pathlight export, or raw events with a timestamp</option>
            <option value="umami">CSV: Umami's website_event table</option>
          </select>
        )}
      </Field>
      <FormError error={error} />
      {busy && (
        <p>
          <progress max={1} value={progress ?? 0} aria-label="Upload progress" />{' '}
          {progress !== null && progress < 1 ? `${Math.round(progress * 100)} % sent` : 'Storing…'}
        </p>
      )}
      {result && <ImportSummary result={result} />}
      <div className="form-actions">
        <button type="submit" className="button" disabled={!file || busy}>
          {busy ? 'Importing…' : 'Import'}
        </button>
      </div>
    </form>
  )
}

function ImportSummary({ result }: { result: ImportResult }) {
  const dropped = Object.entries(result.dropped)
  return (
    <div role="status" className="notice">
      <p>
        Imported {result.imported.toLocaleString()} events
        {dropped.length > 0 &&
          `; skipped ${dropped.map(([reason, count]) => `${count.toLocaleString()} (${reason})`).join(', ')}`}
        {result.rejectedCount > 0 && `; ${result.rejectedCount.toLocaleString()} lines rejected`}.
      </p>
      {result.rejected.length > 0 && (
        <ul>
          {result.rejected.map((r) => (
            <li key={r.line}>
              Line {r.line}: {r.error}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
