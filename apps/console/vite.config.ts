import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "./precompress.ts";

/**
 * React changes rarely, so it gets a chunk of its own for long-term caching. The icons are not
 * grouped: each page's few icons travel with it, so the login page does not load the whole set.
 * antd is deliberately not grouped: left to the bundler, each antd component lands in the chunk of
 * the lazy pages using it (e.g. Table only loads with the log dialog), which keeps the first load
 * small.
 */
const vendorGroups = [
  {
    name: "react",
    test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
  },
];

export default defineConfig({
  plugins: [react(), precompress()],
  // CLIENT_SECRET is the one server setting the console needs at build time (the Basic header).
  envPrefix: ["VITE_", "CLIENT_SECRET"],
  server: {
    port: 5173,
    proxy: { "/api": { target: "http://127.0.0.1:8080", changeOrigin: true } },
  },
  preview: {
    proxy: { "/api": { target: "http://127.0.0.1:8080", changeOrigin: true } },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: vendorGroups },
      },
    },
  },
});
