/** Experiment keys: a suggestion made from the experiment's name. */

/**
 * A key from a name: lower case, accents dropped, runs of other characters as '-', no leading '-' or
 * '_' and no trailing '-', at most 64 characters (the server's `^[a-z0-9][a-z0-9_-]{0,63}$`).
 */
export function slugOf(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|-+$/g, '')
    .slice(0, 64)
}
