import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { OwnerPage } from "./OwnerPage.tsx";
import "./h5.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <OwnerPage />
  </StrictMode>,
);
