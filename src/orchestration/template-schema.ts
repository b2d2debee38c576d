import { z } from "zod";
import { conditionSchema, conditionTypeSchema, toolNameSchema } from "./condition-schema.ts";

/** Turns of conversation each model call re-sends verbatim, unless the template says otherwise. */
export const DEFAULT_RECENT_TURNS = 10;

const toolPatternSchema = z
  .string()
  .min(1, "a tool pattern cannot be empty")
  .regex(/^[A-Za-z0-9_.*-]+$/, "a tool pattern uses letters, digits, '_', '.', '-' and '*' only");

const textOrLines = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (typeof value === "string" ? value : value.join("\n")));

/** A sequence position: one tool, or a non-empty list of alternatives. Normalised to a list. */
export const sequencePositionSchema = z
  .union([
    toolNameSchema,
    z.array(toolNameSchema).min(1, "an alternatives list needs at least one tool"),
  ])
  .transform((value) => (typeof value === "string" ? [value] : value));

export const resetTriggerSchema = z.union([
  z.literal("user_message").describe("Reset on every new user message."),
  conditionTypeSchema.describe(
    "Reset when this step's own condition of that type holds on the new event.",
  ),
  conditionSchema.describe("Reset when this condition holds on the new event."),
]);

export const stepSchema = z.strictObject({
  name: z.string().trim().min(1, "a step needs a name"),
  description: textOrLines.optional(),
  conditions: z
    .array(conditionSchema)
    .optional()
    .describe("All must hold for the step to become active."),
  availableTools: z
    .strictObject({
      allowed: z
        .array(toolPatternSchema)
        .optional()
        .describe("Absent: every agent tool; empty: none."),
      denied: z.array(toolPatternSchema).optional(),
    })
    .optional(),
  sequence: z
    .array(sequencePositionSchema)
    .min(1, "a sequence needs at least one position; omit `sequence` for none")
    .optional()
    .describe("Tools that must run in this order; a position may list alternatives."),
  resetSequenceOn: z.array(resetTriggerSchema).optional(),
  onComplete: z
    .string()
    .min(1)
    .optional()
    .describe('After the sequence completes: "stay" (default), "default", or a step name.'),
  isDefault: z.boolean().optional(),
  forceSequence: z
    .boolean()
    .optional()
    .describe("Make the model call the expected tool while the sequence runs."),
});

export const orchestrationSchema = z.strictObject({
  description: textOrLines.optional(),
  defaultStep: z.string().min(1).optional(),
  enforcement: z.enum(["strict", "guide"]).default("strict"),
  historyLimit: z.int().min(1).max(10_000).default(50),
  steps: z.array(stepSchema).default([]),
});

export const llmProviders = ["scripted", "openai", "anthropic", "openai-compatible"] as const;

export const llmSchema = z.strictObject({
  provider: z.enum(llmProviders),
  model: z.string().min(1, 'name the model, e.g. "gpt-4o-mini" ("auto" for scripted)'),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.int().min(1).optional(),
  baseURL: z.url().optional().describe("For openai-compatible servers (Ollama, vLLM, LM Studio)."),
});

export const durationSchema = z
  .string()
  .regex(/^\d+(ms|s|m|h|d)$/, 'write a duration like "90s", "30m", "24h" or "7d"');

export const agentTemplateSchema = z.strictObject({
  $schema: z.string().optional(),
  id: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9-]*$/,
      "an agent id uses lower-case letters, digits and '-' (it names the folder)",
    ),
  name: z.string().min(1),
  description: z.string().default(""),
  personality: textOrLines.default(""),
  llm: llmSchema.default({ provider: "scripted", model: "auto" }),
  tools: z.array(z.string().min(1)).default([]),
  options: z
    .strictObject({
      maxSteps: z.int().min(1).max(100).default(10),
      tokenOptimization: z.record(z.string(), z.unknown()).optional(),
    })
    .default({ maxSteps: 10 }),
  session: z
    .strictObject({
      idleTimeout: durationSchema.default("24h"),
      history: z
        .strictObject({
          /** Turns every model call re-sends verbatim; older ones live on in the summary. */
          recentTurns: z.int().min(1).max(1000).default(DEFAULT_RECENT_TURNS),
          /** Fold the turns that leave the window into a running summary the model writes. */
          summarize: z.boolean().default(true),
        })
        .default({ recentTurns: DEFAULT_RECENT_TURNS, summarize: true }),
    })
    .default({
      idleTimeout: "24h",
      history: { recentTurns: DEFAULT_RECENT_TURNS, summarize: true },
    }),
  orchestration: orchestrationSchema.default({
    enforcement: "strict",
    historyLimit: 50,
    steps: [],
  }),
  version: z.string().optional(),
  tags: z.array(z.string()).optional(),
  priority: z.number().optional(),
  chatSettings: z
    .strictObject({
      historyPolicy: z.enum(["none", "lastN", "all"]).optional(),
      historyLength: z.int().min(0).optional(),
      initialMessages: z.array(z.string()).optional(),
      chatPrompts: z.array(z.string()).optional(),
    })
    .optional(),
});

export type AgentTemplateInput = z.input<typeof agentTemplateSchema>;
export type AgentTemplate = z.output<typeof agentTemplateSchema>;
export type Step = AgentTemplate["orchestration"]["steps"][number];
export type ResetTrigger = z.output<typeof resetTriggerSchema>;
export type LlmProvider = (typeof llmProviders)[number];
