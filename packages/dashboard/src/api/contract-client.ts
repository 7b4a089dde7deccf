/**
 * Calls an endpoint from its address (`@pathlight/protocol/addresses`, free of zod): the method and
 * path come from there, path parameters are URL-encoded into it, query values are sent as text
 * (undefined ones left out), and the request and the answer are typed by the endpoint's contract
 * (`ContractAt`). Over the same transport as every other call (`client.ts`): JSON, the session
 * cookie, `ApiError` on failure.
 */
import type { Address, ContractAt, RequestOf, ResponseOf } from '@pathlight/protocol'
import { pathOf } from '@pathlight/protocol/addresses'
import { type Transport, transport } from './client'

/** Per-call options: extra request headers (the shared view's `X-Private-Key`). */
export interface CallOptions {
  headers?: Record<string, string>
}

/** Calls endpoints over a transport. */
export type Client = <A extends Address>(
  endpoint: A,
  request: RequestOf<ContractAt<A>>,
  options?: CallOptions,
) => Promise<ResponseOf<ContractAt<A>>>

/**
 * The query string (without `?`) of query values: text as is, numbers and booleans as text, a list's
 * values comma-separated.
 */
export function searchOf(
  query: Record<string, string | number | boolean | readonly string[] | undefined> = {},
): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) search.set(name, Array.isArray(value) ? value.join(',') : String(value))
  return search.toString()
}

/** Build a client over a transport (tests pass a fake one). */
export function createClient(t: Transport = transport): Client {
  return (contract, request, options = {}) => {
    const path = pathOf(contract.path, request.params as Record<string, string | number> | undefined)
    const search = searchOf(
      request.query as Record<string, string | number | boolean | readonly string[] | undefined> | undefined,
    )
    return t.request(
      contract.method,
      search === '' ? path : `${path}?${search}`,
      request.body,
      options.headers,
    )
  }
}

/**
 * Call the endpoint at an address with its path parameters, query and body.
 * @returns the success answer's body, typed by the endpoint's contract
 * @throws ApiError for any failure, including the server being unreachable
 */
export const client: Client = createClient()
