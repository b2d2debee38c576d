import { z } from "zod";

export { agentIdSchema, messageIdSchema, sessionIdSchema } from "../session/ids.ts";

export const portSchema = z.coerce.number().int().min(0).max(65535);

/** `--dir` given once or more. */
export const dirsSchema = z.array(z.string().min(1)).default([]);

/** The Temporal Web UI's address: an http(s) URL, kept without a trailing slash. */
export const temporalUiUrlSchema = z
  .string()
  .refine((value) => /^https?:\/\/[^\s/]+(\/\S*)?$/.test(value), {
    message: "is not an http(s) URL such as http://127.0.0.1:8233",
  })
  .transform((value) => value.replace(/\/+$/, ""));
