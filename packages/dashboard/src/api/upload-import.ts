/**
 * The upload of an import file (`POST /api/sites/{siteId}/import`) with upload progress, which `fetch`
 * does not report: XMLHttpRequest, same origin, the session cookie. NDJSON files go as
 * `application/x-ndjson`; Umami CSV exports as `text/csv` with `format=umami`; Google Analytics 4's
 * BigQuery rows as NDJSON with `format=ga4`; Plausible's export ZIP as `application/zip` with
 * `format=plausible`.
 */
import type { ImportResult } from '@pathlight/protocol'
import { toApiError } from './api-error'

export type ImportFormat = 'ndjson' | 'umami' | 'ga4' | 'plausible'

const MEDIA_TYPES: Record<ImportFormat, string> = {
  ndjson: 'application/x-ndjson',
  umami: 'text/csv',
  ga4: 'application/x-ndjson',
  plausible: 'application/zip',
}

/**
 * @param onProgress fraction of the file sent, 0..1
 * @throws ApiError for any failure (status 0 when the server could not be reached)
 */
export function uploadImport(
  siteId: number,
  file: Blob,
  format: ImportFormat,
  onProgress: (fraction: number) => void,
): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    const query = format === 'ndjson' ? '' : `?format=${format}`
    // The one request spelled as method and path outside the contract and auth clients: neither reports
    // upload progress.
    xhr.open('POST', `/api/sites/${encodeURIComponent(String(siteId))}/import${query}`)
    xhr.setRequestHeader('content-type', MEDIA_TYPES[format])
    xhr.setRequestHeader('accept', 'application/json')
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    }
    xhr.onerror = () => reject(toApiError(0, undefined))
    xhr.onload = () => {
      let body: unknown = xhr.responseText
      try {
        body = JSON.parse(xhr.responseText)
      } catch {
        // Not JSON (a proxy's page): toApiError falls back to the status.
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as ImportResult)
      else reject(toApiError(xhr.status, body))
    }
    xhr.send(file)
  })
}
