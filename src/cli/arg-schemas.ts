import { z } from "zod";

export { agentIdSchema, messageIdSchema, sessionIdSchema } from "../session/ids.ts";

export const portSchema = z.coerce.number().int().min(0).max(65535);

/** `--dir` given once or more. */
export const dirsSchema = z.array(z.string().min(1)).default([]);
