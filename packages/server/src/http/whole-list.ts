/**
 * The answer of a route that lists a whole (unpaged) collection: `{success:true, data, meta:{total}}`
 * (`successList` of `@pathlight/protocol`), the management routes' envelope with the `{data, meta}`
 * shape every list shares.
 */
export const wholeList = <T>(data: T[]) => ({ success: true as const, data, meta: { total: data.length } })
