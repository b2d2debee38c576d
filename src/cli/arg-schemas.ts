import { z } from "zod";

export const sessionIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,200}$/, "a session id uses letters, digits, '.', '_' and '-'");

export const agentIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*$/, "an agent id uses lower-case letters, digits and '-'");

export const portSchema = z.coerce.number().int().min(0).max(65535);

/** `--dir` given once or more. */
export const dirsSchema = z.array(z.string().min(1)).default([]);
