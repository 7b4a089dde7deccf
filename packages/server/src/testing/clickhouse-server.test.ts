import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  buildClickHouseLauncher,
  NoCCompilerError,
  startClickHouseCluster,
  startClickHouseServer,
  startClickHouseServers,
} from './clickhouse-server.js'

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const sql = async (url: string, query: string) => {
  const response = await fetch(url, { method: 'POST', body: query })
  const text = await response.text()
  if (!response.ok) throw new Error(text)
  return text.trim()
}

describe('ClickHouse server from libchdb', () => {
  it('starts two servers on their own ports and data, answers SQL over HTTP, and stops them all', async () => {
    const servers = await startClickHouseServers(2)
    try {
      const [a, b] = servers
      if (!a || !b) throw new Error('two servers expected')
      expect(a.httpPort).not.toBe(b.httpPort)
      expect(a.dataDir).not.toBe(b.dataDir)
      expect(await sql(a.url, 'SELECT version()')).toMatch(/^\d+\.\d+\.\d+/)
      // The real HTTP interface: parameters in the URL, a table written and read back.
      await sql(a.url, 'CREATE TABLE t (n UInt64) ENGINE = MergeTree ORDER BY n')
      await sql(a.url, 'INSERT INTO t SELECT number FROM numbers(10)')
      const answer = await fetch(`${a.url}/?param_min=5`, {
        method: 'POST',
        body: 'SELECT count() FROM t WHERE n >= {min:UInt64}',
      })
      expect((await answer.text()).trim()).toBe('5')
      expect(await sql(a.url, "SELECT getServerPort('tcp_port')")).toBe(String(a.tcpPort))
      // The other server has its own data: no table t.
      await expect(sql(b.url, 'SELECT count() FROM t')).rejects.toThrow(/UNKNOWN_TABLE|does not exist/)
    } finally {
      await Promise.all(servers.map((server) => server.stop()))
    }
    for (const server of servers) {
      expect(alive(server.pid)).toBe(false)
      expect(fs.existsSync(server.dataDir)).toBe(false)
    }
  })

  it('starts a two-shard cluster: a Distributed table spreads rows over both and reads them back', async () => {
    const cluster = await startClickHouseCluster(2, { name: 'two_shards' })
    try {
      const [first, second] = cluster.servers
      if (!first || !second) throw new Error('two shards expected')
      expect(await sql(first.url, "SELECT count() FROM system.clusters WHERE cluster = 'two_shards'")).toBe(
        '2',
      )
      for (const server of cluster.servers)
        await sql(server.url, 'CREATE TABLE local (n UInt64) ENGINE = MergeTree ORDER BY n')
      await sql(first.url, 'CREATE TABLE spread AS local ENGINE = Distributed(two_shards, default, local, n)')
      // Background sends never flush here on their own: insert in the foreground.
      await sql(
        first.url,
        'INSERT INTO spread SELECT number FROM numbers(100) SETTINGS distributed_foreground_insert = 1',
      )
      expect(await sql(first.url, 'SELECT _shard_num, count() FROM spread GROUP BY 1 ORDER BY 1')).toBe(
        '1\t50\n2\t50',
      )
      expect(await sql(second.url, 'SELECT count(), sum(n % 2) FROM local')).toBe('50\t50')
    } finally {
      await cluster.stop()
    }
    for (const server of cluster.servers) expect(alive(server.pid)).toBe(false)
    expect(fs.existsSync(cluster.configFile)).toBe(false)
  })

  it('restarts on the same data', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-clickhouse-reuse-'))
    const first = await startClickHouseServer({ dataDir })
    await sql(first.url, 'CREATE TABLE kept (n UInt8) ENGINE = MergeTree ORDER BY n')
    await sql(first.url, 'INSERT INTO kept VALUES (1), (2)')
    await first.stop({ keepData: true })
    const second = await startClickHouseServer({ dataDir })
    try {
      expect(await sql(second.url, 'SELECT sum(n) FROM kept')).toBe('3')
    } finally {
      await second.stop()
    }
    expect(fs.existsSync(dataDir)).toBe(false)
  })

  it('dies with the process that started it', async () => {
    // A child node process starts a server, prints its pid, and is then killed with SIGKILL: no chance
    // to stop the server itself.
    const script = `
      const { startClickHouseServer } = await import(${JSON.stringify(path.join(import.meta.dirname, 'clickhouse-server.ts'))})
      const server = await startClickHouseServer()
      console.log('pid ' + server.pid)
      setInterval(() => {}, 1000)
    `
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const pid = await new Promise<number>((resolve, reject) => {
      let out = ''
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        const match = /pid (\d+)/.exec(out)
        if (match) resolve(Number(match[1]))
      })
      child.once('exit', (code) => reject(new Error(`starter exited ${code}: ${out}`)))
    })
    expect(alive(pid)).toBe(true)
    child.kill('SIGKILL')
    await expect.poll(() => alive(pid)).toBe(false)
  })

  it('says what to install when there is no C compiler', () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-launcher-'))
    try {
      expect(() => buildClickHouseLauncher({ compiler: 'no-such-cc', cacheDir })).toThrow(NoCCompilerError)
      expect(() => buildClickHouseLauncher({ compiler: 'no-such-cc', cacheDir })).toThrow(
        /needs a C compiler.*`no-such-cc` is not on PATH.*apt-get install gcc/s,
      )
    } finally {
      fs.rmSync(cacheDir, { recursive: true, force: true })
    }
  })
})
