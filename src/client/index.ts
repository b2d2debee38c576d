export { SessionClient, SessionRequestError, type StartSessionOptions } from "./session-client.ts";
