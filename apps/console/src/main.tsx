import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ConsoleApp } from "./app/ConsoleApp.tsx";
import { installErrorCapture } from "./app/error-capture.ts";
import "./theme/shell.css";
import "./theme/widgets.css";
import "./theme/pages.css";

installErrorCapture();

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
createRoot(container).render(
  <StrictMode>
    <ConsoleApp />
  </StrictMode>,
);
