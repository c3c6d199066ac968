import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

// Debian's chromium driven by playwright-core, as the console's browser tests use it: no download, and the
// flags that keep it from reaching for the network this machine does not have.
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** Whether this run refreshes the console's screenshots in docs/console/ (UPDATE_CONSOLE_SCREENSHOTS=1). */
export const UPDATE_SCREENSHOTS = process.env.UPDATE_CONSOLE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/console/', import.meta.url));

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

/** Writes docs/console/<name>.png from `page` when this run refreshes the screenshots; otherwise nothing. */
export async function consoleScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!UPDATE_SCREENSHOTS) return;
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, ...options });
}

/** Whether this run refreshes the merchant dashboard's screenshots in docs/dashboard/ (UPDATE_DASHBOARD_SCREENSHOTS=1). */
const UPDATE_DASHBOARD_SCREENSHOTS = process.env.UPDATE_DASHBOARD_SCREENSHOTS === '1';
const DASHBOARD_SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/dashboard/', import.meta.url));

/** Writes docs/dashboard/<name>.png from `page` when this run refreshes those screenshots; otherwise nothing. */
export async function dashboardScreenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (!UPDATE_DASHBOARD_SCREENSHOTS) return;
  await mkdir(DASHBOARD_SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${DASHBOARD_SCREENSHOT_DIR}${name}.png`, ...options });
}
