/**
 * The `pathlight` command: `serve` (the service; what `npm start` runs) and `demo` (a fresh instance
 * fed with a real access log, then a summary read back from the events store).
 */
const [command = 'serve', ...args] = process.argv.slice(2)

switch (command) {
  case 'serve': {
    const { serve } = await import('./main.js')
    await serve()
    break
  }
  case 'demo': {
    const { runDemo } = await import('./cli/demo.js')
    await runDemo(args)
    break
  }
  default:
    console.error(`Unknown command "${command}". Usage: pathlight serve | pathlight demo [--log FILE]`)
    process.exit(2)
}
