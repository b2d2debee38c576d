import assert from "node:assert/strict";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { modelAccessFromEnv } from "../../../src/llm/model-access-env.ts";
import { ModelAccessError } from "../../../src/llm/model-access-error.ts";
import {
  checkModelAccess,
  isBaseUrlAllowed,
  type ModelAccess,
} from "../../../src/llm/model-access.ts";
import { modelProviders } from "../../../src/llm/model-id.ts";
import { ProviderConfigError } from "../../../src/llm/provider-config-error.ts";

describe("base URLs the operator allowed", () => {
  const allowed = ["http://127.0.0.1:11434/v1", "https://llm.internal", "http://10.0.0.7:*/v1"];
  const cases: [string, boolean][] = [
    ["http://127.0.0.1:11434/v1", true],
    ["http://127.0.0.1:11434/v1/", true],
    ["http://127.0.0.1:11434/v1/chat", true],
    ["http://127.0.0.1:11434/v10", false],
    ["http://127.0.0.1:11434", false],
    ["http://127.0.0.1:11435/v1", false],
    ["https://127.0.0.1:11434/v1", false],
    ["https://llm.internal/anything", true],
    ["https://LLM.internal:443/v1", true],
    ["https://llm.internal.evil.example/v1", false],
    ["https://llm.internal@evil.example/v1", false],
    ["http://10.0.0.7:9999/v1", true],
    ["http://10.0.0.7:9999/v2", false],
    ["http://127.0.0.1:11434/v1/../../admin", false],
    ["file:///etc/passwd", false],
  ];
  for (const [url, expected] of cases) {
    it(`${expected ? "allows" : "refuses"} ${url}`, () => {
      assert.equal(isBaseUrlAllowed(url, allowed), expected);
    });
  }
});

describe("the model access check", () => {
  const dir = mkdtempSync(join(tmpdir(), "model-access-"));
  const scripts = join(dir, "scripts");
  const outside = join(dir, "outside.json");
  writeFileSync(outside, "{}");
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const access: ModelAccess = {
    providers: ["scripted", "openai-compatible"],
    baseURLs: ["http://127.0.0.1:11434/v1"],
    scriptDirs: [scripts],
  };

  function refusal(run: () => void): ModelAccessError {
    let caught: unknown;
    try {
      run();
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof ModelAccessError, String(caught));
    return caught;
  }

  it("refuses a provider the operator left out, naming AGENTDOCK_ALLOWED_PROVIDERS", () => {
    const error = refusal(() => {
      checkModelAccess({ provider: "openai", model: "gpt-4o" }, access, dir);
    });
    assert.equal(error.variable, "AGENTDOCK_ALLOWED_PROVIDERS");
    assert.match(error.message, /"openai"/);
  });

  it("refuses a base URL not allowed, naming it and AGENTDOCK_ALLOWED_BASE_URLS", () => {
    const baseURL = "http://127.0.0.1:9/v1";
    const error = refusal(() => {
      checkModelAccess({ provider: "openai-compatible", model: "m", baseURL }, access, dir);
    });
    assert.equal(error.variable, "AGENTDOCK_ALLOWED_BASE_URLS");
    assert.ok(error.message.includes(`"${baseURL}"`));
  });

  it("allows a model without a base URL (the provider's configured one) and an allowed one", () => {
    checkModelAccess({ provider: "openai-compatible", model: "m" }, access, dir);
    checkModelAccess(
      { provider: "openai-compatible", model: "m", baseURL: "http://127.0.0.1:11434/v1" },
      access,
      dir,
    );
  });

  it("allows scripts inside a script folder, relative ones resolved against the script dir", () => {
    checkModelAccess(
      { provider: "scripted", model: `script:${join(scripts, "a.json")}` },
      access,
      dir,
    );
    checkModelAccess({ provider: "scripted", model: "script:a.json" }, access, scripts);
    checkModelAccess({ provider: "scripted", model: "auto" }, access, dir);
  });

  for (const path of [
    "/etc/passwd",
    outside,
    `${scripts}/../outside.json`,
    "outside.json",
    "scripts",
  ]) {
    it(`refuses the script ${path}, naming AGENTDOCK_SCRIPT_DIRS`, () => {
      const error = refusal(() => {
        checkModelAccess({ provider: "scripted", model: `script:${path}` }, access, dir);
      });
      assert.equal(error.variable, "AGENTDOCK_SCRIPT_DIRS");
      assert.ok(error.message.includes(`"${path}"`));
    });
  }

  it("refuses a symlink that leads out of a script folder", () => {
    const linkDir = mkdtempSync(join(tmpdir(), "model-access-link-"));
    try {
      symlinkSync(outside, join(linkDir, "link.json"));
      const linked: ModelAccess = { ...access, scriptDirs: [linkDir] };
      refusal(() => {
        checkModelAccess(
          { provider: "scripted", model: `script:${join(linkDir, "link.json")}` },
          linked,
          dir,
        );
      });
    } finally {
      rmSync(linkDir, { recursive: true, force: true });
    }
  });
});

describe("model access from the worker's environment", () => {
  const own = {
    providerConfig: { scripted: {}, openaiCompatible: { baseURL: "http://127.0.0.1:11434/v1" } },
    agentsDirs: ["/srv/agents"],
    templateBaseURLs: ["http://10.0.0.9:8000/v1"],
  };

  it("allows every provider, the configured and template base URLs and the agents folders by default", () => {
    assert.deepEqual(modelAccessFromEnv({}, own), {
      providers: modelProviders,
      baseURLs: ["http://127.0.0.1:11434/v1", "http://10.0.0.9:8000/v1"],
      scriptDirs: ["/srv/agents"],
    });
  });

  it("adds the operator's lists", () => {
    const access = modelAccessFromEnv(
      {
        AGENTDOCK_ALLOWED_PROVIDERS: "scripted, openai-compatible",
        AGENTDOCK_ALLOWED_BASE_URLS: "https://llm.internal/v1,http://10.0.0.7:*",
        AGENTDOCK_SCRIPT_DIRS: "/srv/scripts",
      },
      own,
    );
    assert.deepEqual(access.providers, ["scripted", "openai-compatible"]);
    assert.deepEqual(access.baseURLs.slice(0, 2), ["https://llm.internal/v1", "http://10.0.0.7:*"]);
    assert.deepEqual(access.scriptDirs, ["/srv/scripts", "/srv/agents"]);
  });

  it("names the variable holding something unusable", () => {
    assert.throws(
      () =>
        modelAccessFromEnv(
          {
            AGENTDOCK_ALLOWED_PROVIDERS: "openai,gemnii",
            AGENTDOCK_ALLOWED_BASE_URLS: "file:///x",
          },
          own,
        ),
      (error: unknown) => {
        assert.ok(error instanceof ProviderConfigError);
        assert.deepEqual([...error.variables].sort(), [
          "AGENTDOCK_ALLOWED_BASE_URLS",
          "AGENTDOCK_ALLOWED_PROVIDERS",
        ]);
        assert.match(error.message, /"gemnii" is not a provider/);
        assert.match(error.message, /"file:\/\/\/x" is not an http\(s\) base URL/);
        return true;
      },
    );
  });
});
