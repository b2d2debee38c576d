import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DevServerError } from "../../../src/dev-server/dev-server-error.ts";
import { startDevServer } from "../../../src/dev-server/dev-server.ts";
import { writeScript } from "./fake-executable.ts";

// Stand-ins for the CLI that misbehave in the two ways startDevServer must report.
describe("startDevServer failures", { timeout: 20_000 }, () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "dev-server-failures-"));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("fails with the server's output when it exits before it is ready", async () => {
    const cliPath = await writeScript(join(root, "exits"), `echo "boom: bad flag $3" >&2\nexit 3`);
    const logFile = join(root, "exits.log");
    await assert.rejects(
      startDevServer({ cliPath, port: 0, uiPort: false, searchAttributes: {}, logFile }),
      (e) => {
        assert.ok(e instanceof DevServerError);
        assert.match(e.message, /exited before it was ready \(exit 3\)/);
        assert.match(e.message, /boom: bad flag --ip/);
        return true;
      },
    );
    assert.match(await readFile(logFile, "utf8"), /boom/);
  });

  it("gives up after readyTimeoutMs when nothing answers, and stops the process", async () => {
    const pidFile = join(root, "hangs.pid");
    const cliPath = await writeScript(
      join(root, "hangs"),
      `echo $$ > "${pidFile}"\necho "starting forever"\nexec /bin/sleep 60`,
    );
    const started = Date.now();
    await assert.rejects(
      startDevServer({ cliPath, uiPort: false, searchAttributes: {}, readyTimeoutMs: 1_500 }),
      { name: "DevServerError", message: /did not become ready[\s\S]*starting forever/ },
    );
    assert.ok(Date.now() - started < 10_000);
    const pid = Number(await readFile(pidFile, "utf8"));
    assert.throws(() => process.kill(pid, 0), { code: "ESRCH" });
  });

  it("reports a CLI path that cannot be run", async () => {
    await assert.rejects(
      startDevServer({ cliPath: join(root, "missing"), uiPort: false, searchAttributes: {} }),
      { name: "DevServerError", message: /Could not run .*missing/ },
    );
  });
});
