/**
 * The bearer token of an `Authorization: Bearer <token>` header, if the header has that form: the
 * scheme in any case, then any whitespace (spaces, tabs), then one token. The only reader of that
 * header's scheme: the rate limits, the caller, the tracking pipeline and the metrics route use it.
 */
export const bearerToken = (header: string | undefined): string | undefined =>
  header === undefined ? undefined : /^\s*Bearer\s+(\S+)\s*$/i.exec(header)?.[1]
