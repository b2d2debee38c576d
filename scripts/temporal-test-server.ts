import { ensureTimeSkippingServer } from "../test/support/time-skipping-server.ts";

const help = `Usage: npm exec -- node scripts/temporal-test-server.ts ensure

Finds or fetches Temporal's time-skipping test server (the Java SDK's
io.temporal:temporal-test-server, fetched once with Maven into
<XDG_CACHE_HOME or ~/.cache>/agentdock-temporal/test-server-<version>/) and prints
the path of the executable the tests start. TEMPORAL_TEST_SERVER overrides it.
Needs mvn and Java 17+ on PATH the first time.`;

const [command] = process.argv.slice(2);
if (command !== "ensure") {
  console.log(help);
  process.exitCode = command === undefined || command === "--help" || command === "-h" ? 0 : 2;
} else {
  const path = await ensureTimeSkippingServer(process.env, (line) => {
    console.error(line);
  });
  console.log(path);
}
