/**
 * The `pathlight` command: `serve` (the service; what `npm start` runs), `demo` (a fresh instance
 * fed with a real access log, then a summary read back from the events store) and
 * `reset-password EMAIL` (prints a one-time link to set the account's password, for instances without
 * e-mail), `sso-remove EMAIL` (removes the account from the SSO organization and ends its sessions),
 * `ingest-log --site N FILE|-` (a site's access log into its crawler requests,
 * `cli/ingest-log.ts`) and `rederive-channels --site N` (stored events an AI assistant sent moved to
 * the AI Assistants channel, `cli/rederive-channels.ts`).
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
    try {
      await runDemo(args)
    } catch (error) {
      console.error((error as Error).message)
      process.exit(1)
    }
    break
  }
  case 'reset-password': {
    const { loadConfig } = await import('./config.js')
    const { runResetPassword } = await import('./cli/reset-password.js')
    try {
      await runResetPassword(args, loadConfig(process.env))
    } catch (error) {
      console.error((error as Error).message)
      process.exit(1)
    }
    break
  }
  case 'sso-remove': {
    const { loadConfig } = await import('./config.js')
    const { runSsoRemove } = await import('./cli/sso-remove.js')
    try {
      await runSsoRemove(args, loadConfig(process.env))
    } catch (error) {
      console.error((error as Error).message)
      process.exit(1)
    }
    break
  }
  case 'rederive-channels': {
    const { runRederiveChannels } = await import('./cli/rederive-channels.js')
    try {
      await runRederiveChannels(args, process.env)
    } catch (error) {
      console.error((error as Error).message)
      process.exit(1)
    }
    break
  }
  case 'ingest-log': {
    const { runIngestLog } = await import('./cli/ingest-log.js')
    try {
      await runIngestLog(args, process.env)
    } catch (error) {
      console.error((error as Error).message)
      process.exit(1)
    }
    break
  }
  default:
    console.error(
      `Unknown command "${command}". Usage: pathlight serve | pathlight demo [--log FILE] [--data-dir DIR] [--fresh] | pathlight reset-password EMAIL | pathlight ingest-log --site N FILE|- [--follow] [--url URL --key KEY] | pathlight rederive-channels --site N | pathlight sso-remove EMAIL (npm start, npm run demo, npx pathlight reset-password from the Pathlight folder)`,
    )
    process.exit(2)
}
