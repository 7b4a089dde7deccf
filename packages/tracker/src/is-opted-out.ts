/**
 * True when this browser must not be tracked: the site owner's opt-out flag
 * (`localStorage.pathlight_ignore = 'true'`), or Do Not Track / Global Privacy Control when the script
 * tag opts in to honour them with `data-respect-dnt`. Storage that throws (blocked) counts as no flag.
 */
export function isOptedOut(script: HTMLScriptElement): boolean {
  try {
    if (localStorage.getItem('pathlight_ignore') === 'true') return true
  } catch {
    // storage disabled: no opt-out flag can be set either
  }
  return (
    script.hasAttribute('data-respect-dnt') &&
    (navigator.doNotTrack === '1' || navigator.globalPrivacyControl === true)
  )
}
