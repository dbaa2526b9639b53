import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "./precompress.ts";

/**
 * The owner page (/h5/) as a build of its own, after the console's and into the same folder: the
 * console's chunks stay exactly as its own build splits them, and the owner page gets one small
 * script (React and the page, no antd) beside its document, dist/h5/index.html.
 */
export default defineConfig({
  plugins: [react(), precompress({ onlyThisBuild: true })],
  build: {
    outDir: "dist",
    emptyOutDir: false,
    rolldownOptions: {
      input: { h5: fileURLToPath(new URL("./h5/index.html", import.meta.url)) },
    },
  },
});
