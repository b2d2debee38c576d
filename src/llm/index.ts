export { decodeModelId, encodeModelId, modelProviders } from "./model-id.ts";
export type { ModelProvider, ModelRef } from "./model-id.ts";
export { ModelIdError } from "./model-id-error.ts";
export type { LlmField } from "./model-id-error.ts";
export { modelIdOrError } from "./model-id.ts";
export {
  allowedScriptFile,
  checkModelAccess,
  isBaseUrlAllowed,
  modelAccessEnvVars,
} from "./model-access.ts";
export type { ModelAccess } from "./model-access.ts";
export { configuredBaseURLs, modelAccessFromEnv } from "./model-access-env.ts";
export type { WorkerOwnConfig } from "./model-access-env.ts";
export { ModelAccessError } from "./model-access-error.ts";
export { createModelProvider } from "./model-provider.ts";
export { isNonRetryableModelError } from "./non-retryable.ts";
export {
  providerConfigFromEnv,
  providerConfigSchema,
  providerEnvVars,
  providerSecrets,
} from "./provider-config.ts";
export type { ProviderConfig, ProviderConfigInput } from "./provider-config.ts";
export { ProviderConfigError } from "./provider-config-error.ts";
export {
  ScriptedLanguageModel,
  createScriptedModel,
  scriptedModeOf,
} from "./scripted/scripted-model.ts";
export type { ScriptedMode, ScriptedModelOptions } from "./scripted/scripted-model.ts";
export { scriptSchema } from "./scripted/script-file.ts";
export type { Script, ScriptResponse } from "./scripted/script-file.ts";
export { ScriptExhaustedError } from "./scripted/script-exhausted-error.ts";
export { ScriptFileError } from "./scripted/script-file-error.ts";
