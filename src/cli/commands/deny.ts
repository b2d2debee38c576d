import { approvalCommand } from "../approval-command.ts";

export const denyCommand = approvalCommand("deny");
