import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

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
