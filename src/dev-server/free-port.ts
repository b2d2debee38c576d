import { createServer } from "node:net";

/**
 * Asks the OS for a port that is free on `host` right now. Another process can take it before
 * the caller binds it, so callers retry when the bind fails.
 */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen({ host, port: 0, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => {
        if (port === 0) reject(new Error(`could not get a free port on ${host}`));
        else resolve(port);
      });
    });
  });
}
