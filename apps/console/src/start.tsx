import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ConsoleApp } from "./app/ConsoleApp.tsx";
import { loadLanguage } from "./i18n/index.tsx";
import { store } from "./store/store.ts";

/** Renders the console into #root (main.tsx loads this module). */
const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
const render = () =>
  createRoot(container).render(
    <StrictMode>
      <ConsoleApp />
    </StrictMode>,
  );
// English readers get their tables before the first render (zh is built in: no wait); should they
// fail to load, the console still starts, in zh.
loadLanguage(store.getState().language).then(render, render);
