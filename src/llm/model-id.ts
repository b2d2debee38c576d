import { ModelIdError, type LlmField } from "./model-id-error.ts";

// Pure on purpose: the session workflow encodes the template's `llm` block with this module, and
// the worker's provider decodes it. No Node APIs, no `URL` (keep the sandbox surface small).

export const modelProviders = [
  "scripted",
  "openai",
  "anthropic",
  "openai-compatible",
  "gemini",
  "groq",
  "deepseek",
  "cerebras",
] as const;
export type ModelProvider = (typeof modelProviders)[number];

/**
 * What one model id stands for: the template's `llm.provider`, `llm.model`, `llm.baseURL` and
 * `llm.providerOptions` (checked against the provider's schema by the loader and the worker).
 */
export interface ModelRef {
  provider: ModelProvider;
  model: string;
  baseURL?: string | undefined;
  providerOptions?: Readonly<Record<string, unknown>> | undefined;
}

const baseUrlMarker = "@http";
const optionsMarker = "#{";
const httpUrlPattern = /^https?:\/\/[^\s/?#]+\S*$/i;
const scriptedModelHint = 'scripted models are "auto" or "script:<path to a script JSON file>"';

function isModelProvider(value: string): value is ModelProvider {
  return (modelProviders as readonly string[]).includes(value);
}

/**
 * `<provider>:<model>` and, when a base URL is set, `<provider>:<model>@<baseURL>`:
 * `openai:gpt-4o-mini`, `scripted:auto`, `scripted:script:/abs/path.json`,
 * `openai-compatible:llama3.1@http://127.0.0.1:11434/v1`. The provider ends at the first `:` and
 * the base URL starts at the last `@http`, so model names may contain `:` and `@`. Provider
 * options follow as `#` and their JSON, keys sorted, from the first `#{`:
 * `gemini:gemini-2.5-flash#{"useSearchGrounding":true}`. The id names everything the worker needs
 * to build the model, so the workflow passes one string and templates without options keep the
 * ids (and replayed histories) they always had.
 */
export function encodeModelId(llm: ModelRef): string {
  const { provider, model, baseURL } = llm;
  const options = llm.providerOptions;
  const base = `${provider}:${model}${baseURL === undefined ? "" : `@${baseURL}`}`;
  const encoded =
    options === undefined || Object.keys(options).length === 0
      ? { json: "" }
      : canonicalJson(options);
  if ("problem" in encoded) throw new ModelIdError(base, encoded.problem, "llm.providerOptions");
  const suffix = encoded.json === "" ? "" : `#${encoded.json}`;
  const draft = `${base}${suffix}`;
  if (!isModelProvider(provider)) {
    throw new ModelIdError(
      draft,
      `has an unknown provider; use one of ${modelProviders.join(", ")}`,
      "llm.provider",
    );
  }
  if (model.trim() === "" || model !== model.trim()) {
    throw new ModelIdError(draft, "needs a model name without surrounding spaces", "llm.model");
  }
  for (const [field, value] of [
    ["llm.model", model],
    ["llm.baseURL", baseURL ?? ""],
  ] as const) {
    if (value.includes(optionsMarker)) {
      throw new ModelIdError(
        draft,
        `has "${optionsMarker}" in its ${field}, which is reserved`,
        field,
      );
    }
  }
  if (provider === "scripted") {
    if (suffix !== "") {
      throw new ModelIdError(
        draft,
        "sets providerOptions, but scripted models take none",
        "llm.providerOptions",
      );
    }
    if (baseURL !== undefined) {
      throw new ModelIdError(
        draft,
        "sets a baseURL, but scripted models run in the worker",
        "llm.baseURL",
      );
    }
    checkScriptedModel(draft, model);
    return draft;
  }
  if (model.toLowerCase().includes(baseUrlMarker)) {
    throw new ModelIdError(
      draft,
      `has "${baseUrlMarker}" in its model name, which is reserved`,
      "llm.model",
    );
  }
  if (baseURL !== undefined) checkBaseUrl(draft, baseURL);
  return draft;
}

export function decodeModelId(fullId: string): ModelRef {
  const marker = fullId.indexOf(optionsMarker);
  const id = marker === -1 ? fullId : fullId.slice(0, marker);
  const providerOptions =
    marker === -1 ? undefined : parseOptions(fullId, fullId.slice(marker + 1));
  const ref = decodeBase(id);
  if (providerOptions === undefined) return ref;
  if (ref.provider === "scripted") {
    throw new ModelIdError(fullId, "sets provider options, but scripted models take none");
  }
  return { ...ref, providerOptions };
}

function parseOptions(id: string, json: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new ModelIdError(id, "has provider options that are not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ModelIdError(id, "has provider options that are not a JSON object");
  }
  return parsed as Record<string, unknown>;
}

function decodeBase(id: string): ModelRef {
  const colon = id.indexOf(":");
  if (colon <= 0) {
    throw new ModelIdError(id, 'is not "<provider>:<model>" (for example "openai:gpt-4o-mini")');
  }
  const provider = id.slice(0, colon);
  const rest = id.slice(colon + 1);
  if (!isModelProvider(provider)) {
    throw new ModelIdError(
      id,
      `names the unknown provider "${provider}"; use one of ${modelProviders.join(", ")}`,
    );
  }
  if (provider === "scripted") {
    checkScriptedModel(id, rest);
    return { provider, model: rest };
  }
  const at = rest.toLowerCase().lastIndexOf(baseUrlMarker);
  const model = at === -1 ? rest : rest.slice(0, at);
  const baseURL = at === -1 ? undefined : rest.slice(at + 1);
  if (model.trim() === "" || model !== model.trim()) {
    throw new ModelIdError(id, "needs a model name without surrounding spaces after the provider");
  }
  if (baseURL === undefined) return { provider, model };
  checkBaseUrl(id, baseURL);
  return { provider, model, baseURL };
}

function checkBaseUrl(id: string, baseURL: string): void {
  const field: LlmField = "llm.baseURL";
  if (!httpUrlPattern.test(baseURL)) {
    throw new ModelIdError(
      id,
      `has the base URL "${baseURL}", which is not an http(s) URL such as http://127.0.0.1:11434/v1`,
      field,
    );
  }
  if (baseURL.toLowerCase().indexOf(baseUrlMarker) !== -1) {
    throw new ModelIdError(
      id,
      `has "${baseUrlMarker}" inside its base URL, which is reserved`,
      field,
    );
  }
}

function checkScriptedModel(id: string, model: string): void {
  if (model === "auto") return;
  if (model.startsWith("script:") && model.slice("script:".length).trim() !== "") return;
  throw new ModelIdError(
    id,
    `has the scripted model "${model}"; ${scriptedModelHint}`,
    "llm.model",
  );
}

/**
 * The model id for a session's `llm` block, or why there is none, as a turn's error: the workflow
 * reports it instead of throwing (a throw there would fail the workflow task on every retry).
 * Template loading runs the same `encodeModelId`, so only a hand-built input gets here.
 */
export function modelIdOrError(llm: ModelRef): { modelId: string } | { error: string } {
  try {
    return { modelId: encodeModelId(llm) };
  } catch (error) {
    if (!(error instanceof ModelIdError)) throw error;
    const where = error.field === undefined ? "llm" : error.field;
    return {
      error: `the agent's ${where} cannot be used: ${error.message}. Fix the agent template's llm block and start a new session.`,
    };
  }
}

/** JSON with keys sorted at every level, so equal options always make the same id. */
function canonicalJson(value: unknown): { json: string } | { problem: string } {
  let problem: string | undefined;
  const sorted = (item: unknown, depth: number): unknown => {
    if (depth > 16) problem ??= "nests provider options too deeply";
    if (Array.isArray(item)) return item.map((entry) => sorted(entry, depth + 1));
    if (item !== null && typeof item === "object") {
      return Object.fromEntries(
        Object.keys(item)
          .sort()
          .map((key) => [key, sorted((item as Record<string, unknown>)[key], depth + 1)]),
      );
    }
    if (typeof item === "number" && !Number.isFinite(item)) {
      problem ??= "has a provider option that is not a finite number";
    } else if (!["string", "number", "boolean"].includes(typeof item) && item !== null) {
      problem ??= "has a provider option that is not JSON";
    }
    return item;
  };
  const json = JSON.stringify(sorted(value, 0));
  return problem === undefined ? { json } : { problem };
}
