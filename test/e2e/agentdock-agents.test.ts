import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";

// `agents --dir <a folder of AgentDock agents>`, as a user coming from AgentDock runs it: every
// template is valid, warnings name what has no effect here, and "needs" names what each agent
// lacks to run (a provider key in this environment, AgentDock tools this project does not have).

const fixtures = fileURLToPath(new URL("../fixtures/agentdock/", import.meta.url));
const ids = readdirSync(fixtures).sort();

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node src/cli.ts agents …` with only the variables given (no provider key leaks in). */
function agents(
  args: string[],
  env: Record<string, string> = {},
  dir: string = fixtures,
): Promise<Run> {
  const child = spawn(process.execPath, ["src/cli.ts", "agents", "--dir", dir, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) => {
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

interface Listed {
  id: string;
  valid: boolean;
  provider?: string;
  warnings?: { path: string; message: string }[];
  needs?: { settings: string[]; tools: string[]; unavailable: Record<string, string> };
  error?: string;
}

describe("agents --dir with a folder of AgentDock agents", () => {
  it("lists every AgentDock template as valid, exits 0, and names what each needs to run", async () => {
    const run = await agents([]);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    for (const id of ids) {
      assert.match(
        run.stdout,
        new RegExp(`^${id}\\s+(?!INVALID)\\S`, "m"),
        `${id} is listed valid`,
      );
    }
    assert.doesNotMatch(run.stdout, /INVALID/);
    assert.match(run.stdout, /To run as written, 12 of them need:/);
    assert.match(
      run.stdout,
      /^ {2}clinical-reasoner: ANTHROPIC_API_KEY \(provider anthropic\); tools pubmed_search, pubmed_fetch \(AgentDock's; not in this project, never offered\); tools search, deep_research not configured: no search provider \(an operator sets SEARCH_PROVIDER=searxng and SEARXNG_URL=/m,
    );
    // deep_research is built in, but runs only on a worker with a search provider.
    assert.match(
      run.stdout,
      /^ {2}gemini-researcher: GEMINI_API_KEY \(provider gemini\); tool deep_research not configured: no search provider \(an operator sets SEARCH_PROVIDER=searxng and SEARXNG_URL=<base URL of a SearXNG instance> in the worker's environment and restarts it\)$/m,
    );
    assert.match(run.stdout, /^ {2}cerebras-fast: CEREBRAS_API_KEY \(provider cerebras\)$/m);
    assert.match(
      run.stdout,
      /^ {2}groq-distill: GROQ_API_KEY \(provider groq\); tool search not configured: no search provider /m,
    );
    assert.match(
      run.stdout,
      /^ {2}deepseek-coder-helper: DEEPSEEK_API_KEY \(provider deepseek\)$/m,
    );
    assert.match(
      run.stderr,
      /^warning: prompt-library: isEnabled: is false, but every template in an agents folder can start sessions here/m,
    );
    assert.match(
      run.stderr,
      /^warning: cerebras-fast: notes: kept for people reading the file; not used$/m,
    );
    assert.doesNotMatch(run.stderr, /is invalid/);
  });

  it("stops naming a provider key once the environment sets it (--json)", async () => {
    const run = await agents(["--json"], {
      GEMINI_API_KEY: "g-test",
      GROQ_API_KEY: "q-test",
      DEEPSEEK_API_KEY: "d-test",
      CEREBRAS_API_KEY: "c-test",
      AGENTDOCK_ALLOWED_PROVIDERS: "scripted,gemini,groq,deepseek,cerebras",
      SEARCH_PROVIDER: "searxng",
      SEARXNG_URL: "http://127.0.0.1:9",
    });
    assert.equal(run.code, 0, run.stderr);
    const listed = (JSON.parse(run.stdout) as Listed[]).filter((agent) => ids.includes(agent.id));
    assert.deepEqual(
      listed.map((agent) => agent.id),
      ids,
    );
    const byId = new Map(listed.map((agent) => [agent.id, agent]));
    assert.ok(listed.every((agent) => agent.valid));
    assert.deepEqual(byId.get("gemini-researcher")?.needs, {
      settings: [],
      tools: [],
      unavailable: {},
    });
    assert.deepEqual(byId.get("clinical-reasoner")?.needs?.tools, [
      "pubmed_search",
      "pubmed_fetch",
    ]);
    assert.deepEqual(byId.get("groq-distill")?.needs, { settings: [], tools: [], unavailable: {} });
    // Anthropic is not allowed by this environment: the agent is valid but cannot run here.
    assert.deepEqual(byId.get("market-watcher")?.needs, {
      settings: [
        "AGENTDOCK_ALLOWED_PROVIDERS to include anthropic",
        "ANTHROPIC_API_KEY (provider anthropic)",
      ],
      tools: ["stock_price", "crypto_price", "trending_cryptos"],
      unavailable: {},
    });
    assert.equal(byId.get("cerebras-fast")?.provider, "cerebras");
    assert.doesNotMatch(run.stdout, /g-test|q-test|d-test|c-test/);
  });

  it("names the search provider setting for agents whose tools include search or deep_research on a worker without one (--json)", async () => {
    const run = await agents(["--json"], { GEMINI_API_KEY: "g-test" });
    assert.equal(run.code, 0, run.stderr);
    const byId = new Map((JSON.parse(run.stdout) as Listed[]).map((agent) => [agent.id, agent]));
    const fix =
      /^not configured: no search provider \(an operator sets SEARCH_PROVIDER=searxng and SEARXNG_URL=/;
    const researcher = byId.get("gemini-researcher")?.needs;
    assert.ok(researcher !== undefined);
    assert.deepEqual(researcher.settings, []);
    assert.deepEqual(Object.keys(researcher.unavailable), ["deep_research"]);
    assert.match(researcher.unavailable["deep_research"] ?? "", fix);
    const distill = byId.get("groq-distill")?.needs;
    assert.ok(distill !== undefined);
    assert.deepEqual(Object.keys(distill.unavailable), ["search"]);
    assert.match(distill.unavailable["search"] ?? "", fix);
    // An agent with neither tool needs no search provider.
    assert.deepEqual(byId.get("gemini-sketcher")?.needs?.unavailable, {});
  });

  it("says when a template is hidden by a shipped agent with the same id", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentdock-shadow-"));
    try {
      const json = JSON.parse(
        readFileSync(join(fixtures, "structured-thinker", "template.json"), "utf8"),
      ) as Record<string, unknown>;
      mkdirSync(join(dir, "cognitive-reasoner"));
      const file = join(dir, "cognitive-reasoner", "template.json");
      writeFileSync(file, JSON.stringify({ ...json, agentId: "cognitive-reasoner" }));
      const run = await agents([], {}, dir);
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stdout,
        /^cognitive-reasoner\s+Cognitive Reasoner\s+7\s+7\s+sha256:[0-9a-f]{12}\s+agents\//m,
      );
      assert.ok(
        run.stderr.includes(
          `note: cognitive-reasoner: ${file} is not used: an earlier folder has an agent with the same id`,
        ),
        run.stderr,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
