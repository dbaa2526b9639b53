/*
 * The login form as the HTML document brings it (see boot-login-plugin.ts): shown at the first
 * paint on /login, before the console's scripts have loaded, and usable at once. The console's own
 * login page takes over what was typed, the focus and a pending submit (src/app/boot-login.ts) and
 * removes this one. A classic script right after the form (preloaded first): it runs while the document
 * is parsed, before any of the console's modules.
 */
(() => {
  const TEXTS = __BOOT_TEXTS__;
  const boot = document.getElementById("ml-boot-login");
  if (!boot) return;
  const stored = (key) => {
    try {
      const record = JSON.parse(localStorage.getItem(key) || "null");
      return record ? record.content : undefined;
    } catch {
      return undefined;
    }
  };
  // A signed-in visitor is sent on by the console; only the login page shows this form.
  if (location.pathname !== "/login" || stored("saber-token")) {
    boot.remove();
    return;
  }
  const language = stored("saber-language") === "en" ? "en" : "zh";
  const texts = TEXTS[language];
  document.documentElement.lang = language === "en" ? "en" : "zh-CN";
  for (const node of boot.querySelectorAll("[data-text]")) node.textContent = texts[node.dataset.text];
  for (const node of boot.querySelectorAll("[data-label]")) {
    const label = texts[node.dataset.label];
    node.setAttribute("aria-label", label);
    if (node.tagName === "INPUT") node.setAttribute("placeholder", label);
  }
  const tenant = boot.querySelector('input[name="tenantId"]');
  if (tenant) tenant.value = stored("saber-tenant-id") || tenant.value;

  const password = boot.querySelector('input[name="password"]');
  const eye = boot.querySelector(".ml-login-suffix");
  eye.addEventListener("mousedown", (event) => event.preventDefault());
  eye.addEventListener("click", () => {
    const show = password.type === "password";
    password.type = show ? "text" : "password";
    eye.setAttribute("aria-label", texts[show ? "hidePassword" : "showPassword"]);
    eye.dataset.shown = show ? "1" : "";
  });
  boot.querySelector("form").addEventListener("submit", (event) => {
    event.preventDefault();
    boot.dataset.submitted = "1";
  });

  document.documentElement.classList.add("ml-booting");
  boot.hidden = false;
  boot.querySelector('input[name="username"]').focus();
})();
