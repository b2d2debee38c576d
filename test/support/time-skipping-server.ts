import { execFile } from "node:child_process";
import { access, chmod, constants, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { withBuildLock } from "../../src/dev-server/build-lock.ts";

const execFileAsync = promisify(execFile);

/**
 * Temporal's time-skipping test server is the Java SDK's `io.temporal:temporal-test-server`
 * (what `TestWorkflowEnvironment.createTimeSkipping()` would download as a native build, which
 * cannot happen offline). Maven fetches it and its dependencies from the Maven registry once;
 * a wrapper script runs it as the executable the SDK starts (`<script> <port>`).
 */
export const testServerVersion = "1.31.0";

const pom = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>agentdock-temporal</groupId>
  <artifactId>time-skipping-test-server</artifactId>
  <version>1</version>
  <dependencies>
    <dependency>
      <groupId>io.temporal</groupId>
      <artifactId>temporal-test-server</artifactId>
      <version>${testServerVersion}</version>
    </dependency>
  </dependencies>
</project>
`;

/** `<XDG_CACHE_HOME or ~/.cache>/agentdock-temporal/test-server-<version>`. */
export function testServerCacheDir(env: Record<string, string | undefined>): string {
  const xdg = env["XDG_CACHE_HOME"];
  const cacheHome =
    xdg !== undefined && xdg !== "" ? xdg : join(env["HOME"] ?? homedir(), ".cache");
  return join(cacheHome, "agentdock-temporal", `test-server-${testServerVersion}`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The path of an executable that starts the time-skipping test server: TEMPORAL_TEST_SERVER if
 * set, else the cached wrapper, else fetched now with Maven (java and mvn on PATH; once per
 * machine, under a lock so parallel test files wait for one fetch).
 */
export async function ensureTimeSkippingServer(
  env: Record<string, string | undefined> = process.env,
  onProgress: (line: string) => void = () => undefined,
): Promise<string> {
  const given = env["TEMPORAL_TEST_SERVER"];
  if (given !== undefined && given !== "") return given;
  const dir = testServerCacheDir(env);
  const wrapper = join(dir, "temporal-test-server");
  if (await exists(wrapper)) return wrapper;
  await mkdir(dir, { recursive: true });
  return withBuildLock({ lockDir: `${dir}.lock` }, async () => {
    if (await exists(wrapper)) return wrapper;
    onProgress(`fetching io.temporal:temporal-test-server:${testServerVersion} with Maven (once)…`);
    const staging = join(dir, `.fetch-${process.pid}`);
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { recursive: true });
    try {
      await writeFile(join(staging, "pom.xml"), pom);
      try {
        await execFileAsync(
          "mvn",
          ["-q", "-B", "dependency:copy-dependencies", `-DoutputDirectory=${join(dir, "lib")}`],
          { cwd: staging, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
        );
      } catch (error) {
        const output = error instanceof Error && "stdout" in error ? String(error.stdout) : "";
        throw new Error(
          `could not fetch the Temporal test server with Maven (needs mvn and java 17+ on PATH and the Maven registry reachable); set TEMPORAL_TEST_SERVER to a test server executable instead:\n${output.slice(-2_000)}`,
          { cause: error },
        );
      }
      const script = `#!/bin/sh\n# Temporal's time-skipping test server (Java); the SDK passes the port.\nexec java -cp '${join(dir, "lib")}/*' io.temporal.testserver.TestServer "$@"\n`;
      const staged = join(staging, "temporal-test-server");
      await writeFile(staged, script);
      await chmod(staged, 0o755);
      await rename(staged, wrapper);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    return wrapper;
  });
}
