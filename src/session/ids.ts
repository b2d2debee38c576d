import { z } from "zod";

/** Session ids as every entry point accepts them (they become part of a workflow id). */
export const sessionIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,200}$/, "a session id uses letters, digits, '.', '_' and '-'");

/** Agent ids: the folder names of agents/<id>/template.json. */
export const agentIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*$/, "an agent id uses lower-case letters, digits and '-'");
