/** The bearer token of an `Authorization: Bearer <token>` header, if the header has that form. */
export const bearerToken = (header: string | undefined): string | undefined =>
  header === undefined ? undefined : /^Bearer\s+(\S+)$/i.exec(header)?.[1]
