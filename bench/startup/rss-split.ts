/**
 * Where a process's resident memory is, from `/proc/<pid>/smaps` (Linux only): the resident kB of every
 * mapping, summed into parts by what is mapped.
 */
import fs from 'node:fs'

/** Parts of the resident set, MB each; they add up to `VmRSS` (within rounding). */
export interface RssSplit {
  /** chDB's library, `libchdb.so`: file-backed pages it touched while loading. */
  chdbLibrary: number
  /** The `node` executable's file-backed pages. */
  nodeBinary: number
  /** MaxMind DB files (`*.mmdb`) mapped into memory; 0 when they are read rather than mapped. */
  mmdbFiles: number
  /** Other file mappings: shared libraries, native addons (`.node`), fonts, locale data. */
  otherFiles: number
  /**
   * Anonymous memory: the JavaScript heap, `Buffer`s and other array buffers (a geolocation database
   * read whole lands here), chDB's engine and allocator arenas, thread stacks.
   */
  anonymous: number
}

/** The split of `pid`'s resident set now. @throws if `/proc/<pid>/smaps` cannot be read. */
export function rssSplit(pid: number): RssSplit {
  const split: RssSplit = { chdbLibrary: 0, nodeBinary: 0, mmdbFiles: 0, otherFiles: 0, anonymous: 0 }
  let part: keyof RssSplit = 'anonymous'
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    // A mapping's header: "start-end perms offset dev inode [path]".
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line)
    if (header) {
      part = partOf(header[1] ?? '0', header[2] ?? '')
      continue
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line)
    if (rss) split[part] += Number(rss[1]) / 1024
  }
  return split
}

function partOf(inode: string, name: string): keyof RssSplit {
  if (inode === '0' || name === '' || name.startsWith('[')) return 'anonymous'
  if (name.includes('libchdb')) return 'chdbLibrary'
  if (name.endsWith('.mmdb')) return 'mmdbFiles'
  if (name === process.execPath || /\/node$/.test(name)) return 'nodeBinary'
  return 'otherFiles'
}
