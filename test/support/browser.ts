import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";

/**
 * Debian's Chromium, found by path (`.ci/run` installs it with apt-get); never a downloaded
 * browser build. `AGENTDOCK_CHROMIUM` points elsewhere. Undefined when it is not installed: the
 * browser tests then say they are skipped, and CI (which installs it) always runs them.
 */
export const chromiumPath: string | undefined = [
  process.env["AGENTDOCK_CHROMIUM"],
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
].find((path): path is string => path !== undefined && path !== "" && existsSync(path));

export const chromiumSkipReason =
  chromiumPath === undefined
    ? "Chromium not found at /usr/bin/chromium (apt-get install chromium, or set AGENTDOCK_CHROMIUM)"
    : false;

/** A headless Chromium; close it in an `after` hook. */
export async function launchChromium(): Promise<Browser> {
  if (chromiumPath === undefined) throw new Error(String(chromiumSkipReason));
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    // CI runs as root in a container, where Chromium's sandbox cannot start.
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
    timeout: 30_000,
  });
}

/**
 * Screenshots go to test-results/screenshots/ (git-ignored) on every run; with
 * AGENTDOCK_RECORD_SCREENSHOTS=1 to docs/ as well, where the README shows them (like
 * `npm run record-histories`, so a test run leaves the tree unchanged).
 */
const screenshotDirs = [
  fileURLToPath(new URL("../../test-results/screenshots/", import.meta.url)),
  ...(process.env["AGENTDOCK_RECORD_SCREENSHOTS"] === "1"
    ? [fileURLToPath(new URL("../../docs/", import.meta.url))]
    : []),
];

/** Saves a screenshot of `page` under `name` (a .png file name) in the screenshot folders. */
export async function saveScreenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  const image = await page.screenshot({ fullPage: options.fullPage ?? false });
  for (const dir of screenshotDirs) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), image);
  }
}
