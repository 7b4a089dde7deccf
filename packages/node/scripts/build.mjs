/**
 * Build `dist/`: `index.mjs` (ESM) and `index.cjs` (CommonJS) bundled by esbuild for Node 18, and the type
 * declarations as one self-contained file, `index.d.ts` for `import` and the same text as `index.d.cts` for
 * `require` (so TypeScript sees a CommonJS module there, not ESM types masquerading as CommonJS).
 *
 * Declarations: TypeScript 7's native `tsc` emits one `.d.ts` per source file (`--emitDeclarationOnly`);
 * `bundleDeclarations` below joins them without the compiler API. It relies on the shape tsc gives these
 * files (top-level declarations at column 0) and on house rules it checks: the entry only re-exports named
 * bindings, modules import each other by relative specifier, nothing imports a package, no two modules
 * declare the same name. Anything else fails the build rather than producing wrong types.
 *
 * Usage: `node scripts/build.mjs` (or `npm run build` in packages/node). Prints what it wrote.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const distDir = path.join(packageDir, 'dist')
const require = createRequire(import.meta.url)
const tscBin = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin', 'tsc')

const started = Date.now()
fs.rmSync(distDir, { recursive: true, force: true })

const common = {
  entryPoints: [path.join(packageDir, 'src/index.ts')],
  bundle: true,
  platform: 'node',
  target: 'node18',
  logLevel: 'warning',
  // Nothing but Node's own modules may be imported: a bare import would be a runtime dependency.
  external: [],
}
await Promise.all([
  build({ ...common, format: 'esm', outfile: path.join(distDir, 'index.mjs') }),
  build({ ...common, format: 'cjs', outfile: path.join(distDir, 'index.cjs') }),
])

const declarationsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-node-dts-'))
try {
  execFileSync(
    process.execPath,
    [tscBin, '-p', path.join(packageDir, 'tsconfig.build.json'), '--outDir', declarationsDir],
    { stdio: 'inherit' },
  )
  const bundled = bundleDeclarations(declarationsDir, 'index.d.ts')
  fs.writeFileSync(path.join(distDir, 'index.d.ts'), bundled)
  fs.writeFileSync(path.join(distDir, 'index.d.cts'), bundled)
} finally {
  fs.rmSync(declarationsDir, { recursive: true, force: true })
}
checkDeclarations([path.join(distDir, 'index.d.ts'), path.join(distDir, 'index.d.cts')])

for (const file of fs.readdirSync(distDir).sort()) {
  console.log(`dist/${file}  ${fs.statSync(path.join(distDir, file)).size} bytes`)
}
console.log(`built in ${Date.now() - started} ms`)

/**
 * Join the per-module declarations reachable from `entry` (in `dir`) into one module whose exports are
 * exactly the entry's: relative imports and re-exports are dropped, and `export` is removed from
 * declarations the entry does not re-export.
 * @throws when a module does something the join cannot represent (see the file comment)
 */
function bundleDeclarations(dir, entry) {
  const relativeSpecifier = /from\s+['"](\.\.?\/[^'"]+)\.js['"]/g
  const order = []
  const visit = (file) => {
    if (order.includes(file)) return
    const text = fs.readFileSync(path.join(dir, file), 'utf8')
    order.push(file)
    for (const [, specifier] of text.matchAll(relativeSpecifier)) {
      visit(path.posix.normalize(path.posix.join(path.posix.dirname(file), `${specifier}.d.ts`)))
    }
  }
  visit(entry)

  const publicNames = new Set()
  const entryText = fs.readFileSync(path.join(dir, entry), 'utf8')
  const withoutReExports = entryText.replace(
    /^export\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"]\.\.?\/[^'"]+['"];?[ \t]*$/gm,
    (_all, list) => {
      for (const item of list.split(',')) {
        const name = item.trim().replace(/^type\s+/, '')
        if (name === '') continue
        if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new Error(`${entry}: unsupported re-export "${name}"`)
        publicNames.add(name)
      }
      return ''
    },
  )
  if (/^\s*(export|import)\s/m.test(withoutReExports.replace(/\/\*[\s\S]*?\*\//g, ''))) {
    throw new Error(`${entry}: only \`export { names } from './module.js'\` is supported in the entry`)
  }

  const declared = new Map()
  const keyword = '(?:class|function|const|let|var|interface|type|enum|namespace)'
  const declaration = new RegExp(
    `^(export\\s+)?((?:declare\\s+)?(?:abstract\\s+)?${keyword}\\s+([A-Za-z_$][\\w$]*))`,
    'gm',
  )
  const parts = []
  for (const file of order.slice(1).reverse()) {
    let text = fs.readFileSync(path.join(dir, file), 'utf8')
    text = text.replace(/^import\s[\s\S]*?from\s+['"]\.\.?\/[^'"]+['"];?[ \t]*\n/gm, '')
    text = text.replace(/^export\s*\{\s*\};?[ \t]*\n?/gm, '')
    if (/^(import|export\s*\{|export\s*\*|\/\/\/\s*<reference)/m.test(text)) {
      throw new Error(`${file}: package imports, export lists and references are not supported`)
    }
    const names = new Set()
    text = text.replace(declaration, (_all, exported, rest, name) => {
      names.add(name)
      return exported && publicNames.has(name) ? `export ${rest}` : rest
    })
    for (const name of names) {
      if (declared.has(name)) throw new Error(`${name} is declared in both ${declared.get(name)} and ${file}`)
      declared.set(name, file)
    }
    parts.push(`// ${file.replace(/\.d\.ts$/, '.ts')}\n${text.trim()}\n`)
  }
  for (const name of publicNames) {
    if (!declared.has(name)) throw new Error(`${entry} re-exports ${name}, which no module declares`)
  }
  const header = entryText.match(/^\/\*\*[\s\S]*?\*\//)?.[0] ?? ''
  return `${header}\n${parts.join('\n')}`
}

/** Type-check declaration files on their own: strict, ES2022 only, no @types (they must not need Node's). */
function checkDeclarations(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-node-dts-check-'))
  try {
    const config = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['es2022'],
        types: [],
        skipLibCheck: false,
      },
      files,
    }
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(config))
    execFileSync(process.execPath, [tscBin, '-p', path.join(dir, 'tsconfig.json')], { stdio: 'inherit' })
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
