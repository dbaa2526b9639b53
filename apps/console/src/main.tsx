import { bootFormPainted } from "./app/boot-login.ts";
import { installErrorCapture } from "./app/error-capture.ts";
import "./theme/shell.css";
import "./theme/widgets.css";
import "./theme/pages.css";

installErrorCapture();

// The console's code (React, antd, the shell) is loaded by index.html's preloads from the start,
// but run only once the login form index.html brings (on /login) has been painted: running it
// first would hold that paint back by the time it takes. Elsewhere it runs at once.
bootFormPainted()
  .then(() => import("./start.tsx"))
  .catch((error: unknown) => console.error("the console failed to start", error));
