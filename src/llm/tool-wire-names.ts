import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart,
  ProviderV4,
} from "@ai-sdk/provider";

// What OpenAI, Anthropic and the other providers accept as a function name.
const wirePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** FNV-1a, 32 bits: a short, stable suffix that keeps two long names apart. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/**
 * The name a provider is shown for a tool whose policy name it would refuse: `mcp.docs.lookup`
 * becomes `mcp__docs__lookup`; any other character becomes `_`; a name that would pass 64
 * characters keeps 55 and a hash of the whole. Names providers accept are their own wire name.
 */
export function wireToolName(name: string): string {
  if (wirePattern.test(name)) return name;
  const sanitized = name.replaceAll(".", "__").replace(/[^A-Za-z0-9_-]/g, "_");
  return sanitized.length > 0 && sanitized.length <= 64 ? sanitized : hashed(sanitized, name);
}

function hashed(sanitized: string, name: string): string {
  return `${sanitized.slice(0, 55)}_${fnv1a(name)}`;
}

/**
 * Policy name → wire name for every tool name of one call, one-to-one and independent of order:
 * a name providers accept keeps itself, and names whose wire forms collide (with such a name,
 * or with each other: `mcp.a.b.c` and `mcp.a.b__c`) all take the hashed form. Derived from the
 * call alone, so the same names always map the same way.
 */
export function wireNameMap(names: Iterable<string>): Map<string, string> {
  const unique = [...new Set(names)];
  const valid = new Set(unique.filter((name) => wirePattern.test(name)));
  const candidates = new Map<string, number>();
  for (const name of unique) {
    if (valid.has(name)) continue;
    const wire = wireToolName(name);
    candidates.set(wire, (candidates.get(wire) ?? 0) + 1);
  }
  const map = new Map<string, string>();
  for (const name of unique) {
    if (valid.has(name)) {
      map.set(name, name);
      continue;
    }
    const wire = wireToolName(name);
    const clash = valid.has(wire) || (candidates.get(wire) ?? 0) > 1;
    map.set(name, clash ? hashed(wire, name) : wire);
  }
  return map;
}

type Rename = (name: string) => string | undefined;

function renamed<T>(part: T, rename: Rename): T {
  if (typeof part !== "object" || part === null || !("toolName" in part)) return part;
  const name = part.toolName;
  if (typeof name !== "string") return part;
  const other = rename(name);
  return other === undefined || other === name ? part : { ...part, toolName: other };
}

function callNames(options: LanguageModelV4CallOptions): string[] {
  const names = (options.tools ?? []).map((tool) => tool.name);
  for (const message of options.prompt) {
    if (typeof message.content === "string") continue;
    for (const part of message.content) {
      if ("toolName" in part && typeof part.toolName === "string") names.push(part.toolName);
    }
  }
  if (options.toolChoice?.type === "tool") names.push(options.toolChoice.toolName);
  return names;
}

function toWire(
  options: LanguageModelV4CallOptions,
  map: ReadonlyMap<string, string>,
): LanguageModelV4CallOptions {
  const prompt = options.prompt.map((message) =>
    typeof message.content === "string"
      ? message
      : {
          ...message,
          content: message.content.map((part) => renamed(part, (name) => map.get(name))),
        },
  ) as LanguageModelV4CallOptions["prompt"];
  return {
    ...options,
    prompt: withNameNote(prompt, map),
    ...(options.tools === undefined
      ? {}
      : {
          tools: options.tools.map((tool) => ({ ...tool, name: map.get(tool.name) ?? tool.name })),
        }),
    ...(options.toolChoice?.type === "tool"
      ? {
          toolChoice: {
            ...options.toolChoice,
            toolName: map.get(options.toolChoice.toolName) ?? options.toolChoice.toolName,
          },
        }
      : {}),
  };
}

/**
 * Wire name → policy name. A name the call did not offer (the model called a tool the step
 * withholds) still comes back as its policy name when it has the MCP shape, so the refusal the
 * session records and the model reads names `mcp.docs.search`, not `mcp__docs__search`.
 */
function reverse(map: ReadonlyMap<string, string>): Rename {
  const known = new Map([...map].map(([policy, wire]) => [wire, policy]));
  return (wire) => known.get(wire) ?? mcpShaped(wire);
}

function mcpShaped(wire: string): string | undefined {
  const match = /^mcp__([A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*)__(.+)$/.exec(wire);
  return match === null ? undefined : `mcp.${match[1]}.${match[2]}`;
}

/**
 * The model reads policy names in refusals, notes and earlier results ("call mcp.docs.lookup
 * instead") but calls wire names: one system line tells it which is which.
 */
function withNameNote(
  prompt: LanguageModelV4CallOptions["prompt"],
  map: ReadonlyMap<string, string>,
): LanguageModelV4CallOptions["prompt"] {
  const renamedTools = [...map].filter(([policy, wire]) => policy !== wire);
  if (renamedTools.length === 0) return prompt;
  const pairs = renamedTools.map(([policy, wire]) => `${policy} is called as ${wire}`).join("; ");
  const note = {
    role: "system" as const,
    content: `Tool names: messages may write a tool's name with dots; call it by its function name (${pairs}).`,
  };
  const at = prompt[0]?.role === "system" ? 1 : 0;
  return [...prompt.slice(0, at), note, ...prompt.slice(at)];
}

/**
 * A model whose provider sees tool names it accepts: policy names such as `mcp.docs.lookup` go
 * out as wire names and the model's calls come back under the policy name. Everything the
 * workflow records (history, events, the orchestrator's decisions) keeps the policy name; a call
 * whose tools all have valid names goes out unchanged.
 */
export function withWireToolNames(model: LanguageModelV4): LanguageModelV4 {
  // The answer is always mapped back: a model may call a wire name the call did not offer.
  const plan = (options: LanguageModelV4CallOptions) => {
    const map = wireNameMap(callNames(options));
    const changed = [...map].some(([policy, wire]) => policy !== wire);
    return { options: changed ? toWire(options, map) : options, back: reverse(map) };
  };
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: async (options) => {
      const mapped = plan(options);
      const result = await model.doGenerate(mapped.options);
      return { ...result, content: result.content.map((part) => renamed(part, mapped.back)) };
    },
    doStream: async (options) => {
      const mapped = plan(options);
      const result = await model.doStream(mapped.options);
      return {
        ...result,
        stream: result.stream.pipeThrough(
          new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
            transform: (part, controller) => {
              controller.enqueue(renamed(part, mapped.back));
            },
          }),
        ),
      };
    },
  };
}

/** Every language model of `provider` with wire tool names (see `withWireToolNames`). */
export function withWireToolNamesProvider(provider: ProviderV4): ProviderV4 {
  return {
    specificationVersion: "v4",
    languageModel: (modelId) => withWireToolNames(provider.languageModel(modelId)),
    embeddingModel: (modelId) => provider.embeddingModel(modelId),
    imageModel: (modelId) => provider.imageModel(modelId),
  };
}
