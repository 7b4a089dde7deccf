/**
 * The on/off switches of a site's settings page, grouped as the page shows them, with their labels and
 * what each does.
 */
import type { SiteConfig } from '@pathlight/protocol'

/** The configuration's on/off switches. */
export type SwitchName = {
  [K in keyof SiteConfig]: SiteConfig[K] extends boolean ? K : never
}[keyof SiteConfig]

export const switchGroups: {
  title: string
  switches: { name: SwitchName; label: string; description: string }[]
}[] = [
  {
    title: 'Visibility',
    switches: [
      {
        name: 'public',
        label: 'Public analytics',
        description: 'Anyone can read this site’s analytics without signing in (never its settings).',
      },
    ],
  },
  {
    title: 'Privacy and filtering',
    switches: [
      {
        name: 'blockBots',
        label: 'Block bots',
        description:
          'Drop requests from crawlers, headless browsers (Puppeteer, Playwright, HeadlessChrome) and ' +
          'empty user agents, which would otherwise count as visitors. Requests with an API key are ' +
          'never blocked. Testing the script with an automated browser? Turn this off while you test: ' +
          'the installation page counts the requests it drops.',
      },
      {
        name: 'saltUserIds',
        label: 'Rotate visitor ids daily',
        description:
          'Anonymous visitor ids change every day, so nobody can be followed across days. ' +
          'Multi-day visitor counts rise.',
      },
    ],
  },
  {
    title: 'What the tracking script collects',
    switches: [
      {
        name: 'trackOutbound',
        label: 'Outbound link clicks',
        description: 'Clicks on links to other sites.',
      },
      {
        name: 'trackErrors',
        label: 'JavaScript errors',
        description: 'Uncaught errors and unhandled promise rejections, with stack traces.',
      },
      {
        name: 'webVitals',
        label: 'Core Web Vitals',
        description: 'LCP, CLS, INP, FCP and TTFB of each page load (loads a small extra script).',
      },
      {
        name: 'trackUrlParams',
        label: 'URL query parameters',
        description: 'Keep the query string of each page. UTM tags are read either way.',
      },
      {
        name: 'sessionReplay',
        label: 'Session replay',
        description:
          'Records what visitors see and do on your pages, to watch on each session’s page. Inputs are ' +
          'masked, password fields and [data-pathlight-block] elements left out, [data-pathlight-mask] ' +
          'text shown as asterisks. Loads the recorder script.',
      },
      {
        name: 'heatmaps',
        label: 'Heatmaps',
        description:
          'Records where visitors click, against the element clicked (not screen coordinates), with rage ' +
          'and dead clicks marked, for the heatmap of each page (Pages report, Heatmap). No text is ' +
          'read; nothing inside [data-pathlight-block] and no password field. Loads a small extra script.',
      },
    ],
  },
  {
    title: 'Rybbit’s web SDK (@rybbit/js)',
    switches: [
      {
        name: 'trackInitialPageView',
        label: 'First pageview',
        description: 'The SDK sends the pageview of the page it starts on.',
      },
      {
        name: 'trackSpaNavigation',
        label: 'Single-page app navigation',
        description: 'The SDK sends a pageview on each client-side route change.',
      },
      {
        name: 'trackButtonClicks',
        label: 'Button clicks',
        description: 'Clicks on buttons, as custom events named button_click with the button’s text.',
      },
      {
        name: 'trackCopy',
        label: 'Copied text',
        description: 'Text visitors copy (its first 500 characters), as custom events named copy.',
      },
      {
        name: 'trackFormInteractions',
        label: 'Form submits and input changes',
        description:
          'Form submits and changed fields (their names, never their values), as custom events named ' +
          'form_submit and input_change.',
      },
    ],
  },
]
