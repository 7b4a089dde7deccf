/** The `meta` of a paginated list answer. */

/**
 * `{total, page, pageSize, totalPages}`, in that key order.
 * @param params the 1-based page and the page size (`limit`) the list was read with
 * @param total rows in the whole list
 */
export const pageMeta = (params: { page: number; limit: number }, total: number) => ({
  total,
  page: params.page,
  pageSize: params.limit,
  totalPages: Math.ceil(total / params.limit),
})
