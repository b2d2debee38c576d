import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The console is built by `npm install` (the `prepare` script) into dist/web, which the API
// serves at `/`; `npm run build:console` rebuilds it. Paths are relative to this folder.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    // Hashed file names under assets/: the server caches them for a year.
    assetsDir: "assets",
    chunkSizeWarningLimit: 600,
  },
  logLevel: "warn",
});
