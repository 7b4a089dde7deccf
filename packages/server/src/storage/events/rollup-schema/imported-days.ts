/**
 * `imported_days` (migration 016): another tool's history kept as daily totals, written by the
 * Plausible import and read by `query/imported-totals.ts`.
 */

/** The table's name. */
export const IMPORTED_DAYS = 'imported_days'
