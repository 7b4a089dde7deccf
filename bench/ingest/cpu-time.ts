/**
 * CPU time as Linux accounts it (`/proc`), to say where a load run's CPU went: the server process (all its
 * threads: the event loop, libuv's pool, chDB's threads), the load generator (this process), and the
 * machine as a whole. Linux only; elsewhere every reading is null.
 */
import fs from 'node:fs'

/** Kernel clock ticks per second of `/proc` CPU counters (`getconf CLK_TCK`; 100 on Linux x86-64). */
const TICKS_PER_SECOND = 100

/** CPU ms (user + system, every thread) the process `pid` has used so far; null when unreadable. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces, inside parentheses): utime is the 14th
    // field of the line and stime the 15th, i.e. the 12th and 13th after ") ".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
  } catch {
    return null
  }
}

/** Busy and total CPU ms of the whole machine so far (all CPUs summed); null when unreadable. */
export function machineCpuMs(): { busy: number; total: number } | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? ''
    // cpu user nice system idle iowait irq softirq steal ...
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number)
    const busy = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)
    const toMs = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND
    return { busy: toMs(busy), total: toMs(busy + (idle ?? 0) + (iowait ?? 0)) }
  } catch {
    return null
  }
}

/** Where one measured interval's CPU went. */
export interface CpuSplit {
  /** Server CPU µs per response. */
  serverUsPerRequest: number | null
  /** Load generator (this process) CPU µs per response. */
  clientUsPerRequest: number | null
  /** Share of all the machine's CPUs busy during the interval (0-1), whoever used them. */
  machineBusy: number | null
}

/**
 * Start measuring; call the returned function when the interval ends.
 * @param pid the server's process id
 */
export function startCpuSplit(pid: number): (responses: number) => CpuSplit {
  const server = processCpuMs(pid)
  const client = process.cpuUsage()
  const machine = machineCpuMs()
  return (responses) => {
    const serverNow = processCpuMs(pid)
    const clientUs = process.cpuUsage(client)
    const machineNow = machineCpuMs()
    const per = (us: number) => (responses > 0 ? us / responses : null)
    return {
      serverUsPerRequest: server === null || serverNow === null ? null : per((serverNow - server) * 1000),
      clientUsPerRequest: per(clientUs.user + clientUs.system),
      machineBusy:
        machine === null || machineNow === null || machineNow.total === machine.total
          ? null
          : (machineNow.busy - machine.busy) / (machineNow.total - machine.total),
    }
  }
}
