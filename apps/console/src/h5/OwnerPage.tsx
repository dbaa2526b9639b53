import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { AccountCard } from "./AccountCard.tsx";
import {
  type Account,
  call,
  type Me,
  OwnerApiError,
  type PayChannel,
  savedSession,
  saveSession,
} from "./api.ts";
import { Bind } from "./Bind.tsx";
import { History } from "./History.tsx";
import { initialLanguage, type Language, saveLanguage, translator } from "./i18n.ts";
import { NoticeList } from "./NoticeList.tsx";
import { PayResult } from "./PayResult.tsx";
import { Recharge } from "./Recharge.tsx";
import { SignIn } from "./SignIn.tsx";

const inWechat = () => /MicroMessenger/i.test(navigator.userAgent);
const WECHAT_TRIED = "meterline.h5.wechat-tried";

/** The session WeChat's return put in the fragment (never sent to a server), taken and dropped. */
function sessionFromFragment(): string | null {
  const token = new URLSearchParams(location.hash.slice(1)).get("session");
  if (token) history.replaceState(null, "", `${location.pathname}${location.search}`);
  return token;
}

type View =
  | { name: "loading" }
  | { name: "no-tenant" }
  | { name: "failed" }
  | { name: "sign-in"; wechat: boolean }
  | { name: "bind"; me: Me }
  | { name: "home"; me: Me }
  | { name: "recharge"; account: Account }
  | { name: "result"; outTradeNo: string; channel: PayChannel };

/**
 * The address's words of an order: WeChat Pay's, and Alipay's (all its cashier adds when it sends
 * the owner back, signed return parameters included), dropped together on the way back home.
 */
const ORDER_WORDS = [
  "order",
  "pay",
  "out_trade_no",
  "trade_no",
  "total_amount",
  "seller_id",
  "app_id",
  "auth_app_id",
  "method",
  "charset",
  "version",
  "timestamp",
  "sign",
  "sign_type",
];

/**
 * The order the address names: ?order=… (WeChat Pay) or ?pay=alipay&out_trade_no=… (Alipay,
 * also where its cashier sends the owner back): the result page, resumed after a reload.
 */
function orderInAddress(): { outTradeNo: string; channel: PayChannel } | undefined {
  const params = new URLSearchParams(location.search);
  const alipay = params.get("pay") === "alipay" ? params.get("out_trade_no") : null;
  if (alipay) return { outTradeNo: alipay, channel: "alipay" };
  const order = params.get("order");
  return order ? { outTradeNo: order, channel: "wxpay" } : undefined;
}

function setOrderInAddress(order: { outTradeNo: string; channel: PayChannel } | undefined) {
  const params = new URLSearchParams(location.search);
  for (const name of ORDER_WORDS) params.delete(name);
  if (order?.channel === "wxpay") params.set("order", order.outTradeNo);
  if (order?.channel === "alipay") {
    params.set("pay", "alipay");
    params.set("out_trade_no", order.outTradeNo);
  }
  history.pushState(null, "", `${location.pathname}?${params}`);
}

export function OwnerPage() {
  const tenantId = useMemo(() => new URLSearchParams(location.search).get("tenant") ?? "", []);
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const t = useMemo(() => translator(language), [language]);
  const [token, setToken] = useState<string | null>(() => {
    const fresh = sessionFromFragment();
    if (fresh && tenantId) saveSession(tenantId, fresh);
    return fresh ?? (tenantId ? savedSession(tenantId) : null);
  });
  const [view, setView] = useState<View>({ name: "loading" });
  const [notice, setNotice] = useState("");

  useEffect(() => {
    document.documentElement.lang = language === "zh" ? "zh-CN" : "en";
    document.title = t("title");
  }, [language, t]);

  // The words of the moment, for what load() says: switching the language must not load the page
  // again (it would take the owner from the recharge form back to the accounts).
  const words = useRef(t);
  words.current = t;
  const load = useCallback(async () => {
    if (!tenantId) return setView({ name: "no-tenant" });
    try {
      if (token) {
        const me = await call<Me>("GET", "me", { token });
        const order = orderInAddress();
        if (me.bound && order) return setView({ name: "result", ...order });
        return setView(me.bound ? { name: "home", me } : { name: "bind", me });
      }
      const site = await call<{ wechat: boolean }>("GET", `site?tenantId=${encodeURIComponent(tenantId)}`);
      // Inside WeChat the official account vouches for the person: go there once, silently.
      if (site.wechat && inWechat() && !sessionStorage.getItem(WECHAT_TRIED)) {
        sessionStorage.setItem(WECHAT_TRIED, "1");
        location.href = `/api/blade-pms/h5/wechat?tenantId=${encodeURIComponent(tenantId)}`;
        return;
      }
      setView({ name: "sign-in", wechat: site.wechat });
    } catch (error) {
      if (error instanceof OwnerApiError && error.status === 401) {
        saveSession(tenantId, null);
        setNotice(words.current("sessionEnded"));
        setToken(null);
        return;
      }
      if (error instanceof OwnerApiError && error.status === 404) return setView({ name: "no-tenant" });
      setView({ name: "failed" });
    }
  }, [tenantId, token]);

  useEffect(() => {
    void load();
  }, [load]);
  // The browser's back and forward buttons move between the result page and the accounts.
  useEffect(() => {
    const moved = () => void load();
    window.addEventListener("popstate", moved);
    return () => window.removeEventListener("popstate", moved);
  }, [load]);

  const ordered = (outTradeNo: string, channel: PayChannel) => {
    setNotice("");
    setOrderInAddress({ outTradeNo, channel });
    setView({ name: "result", outTradeNo, channel });
  };
  const backHome = () => {
    if (orderInAddress()) setOrderInAddress(undefined);
    void load();
  };

  const signedIn = (next: string) => {
    saveSession(tenantId, next);
    setNotice("");
    setToken(next);
  };
  // The owner asked for a code under a tenant code that exists nowhere: back to entering one.
  const unknownTenant = () => {
    setNotice(t("unknownTenant"));
    setView({ name: "no-tenant" });
  };
  const signOut = async () => {
    if (token) await call("POST", "sign-out", { token }).catch(() => undefined);
    saveSession(tenantId, null);
    setToken(null);
  };
  const unbind = async () => {
    if (!token || !window.confirm(t("unbindConfirm"))) return;
    try {
      await call("POST", "unbind", { token });
      setNotice(t("unbound"));
      await load();
    } catch (error) {
      setNotice(error instanceof OwnerApiError ? error.message : t("failed"));
    }
  };
  const switchLanguage = () => {
    const next = language === "zh" ? "en" : "zh";
    saveLanguage(next);
    setLanguage(next);
  };

  return (
    <div className="page">
      <header className="top">
        <h1>{t("title")}</h1>
        <button
          type="button"
          className="secondary small"
          onClick={switchLanguage}
          lang={language === "zh" ? "en" : "zh-CN"}
          data-testid="h5-language"
        >
          {t("language")}
        </button>
      </header>
      <main>
        {notice && (
          <p className="message" role="status">
            {notice}
          </p>
        )}
        {view.name === "loading" && <p className="hint">{t("loading")}</p>}
        {view.name === "failed" && (
          <div className="card">
            <p className="message error">{t("failed")}</p>
            <button type="button" onClick={() => void load()}>
              {t("retry")}
            </button>
          </div>
        )}
        {view.name === "no-tenant" && <TenantEntry t={t} />}
        {view.name === "sign-in" && (
          <SignIn
            t={t}
            tenantId={tenantId}
            wechat={view.wechat}
            onSignedIn={signedIn}
            onUnknownTenant={unknownTenant}
          />
        )}
        {view.name === "bind" && token && (
          <>
            <Bind
              t={t}
              tenantId={tenantId}
              token={token}
              sessionPhone={view.me.phone}
              onBound={() => {
                setNotice(t("bound"));
                void load();
              }}
            />
            <button type="button" className="link" onClick={signOut}>
              {t("signOut")}
            </button>
          </>
        )}
        {view.name === "recharge" && token && (
          <Recharge t={t} token={token} account={view.account} onOrdered={ordered} onBack={backHome} />
        )}
        {view.name === "result" && token && (
          <PayResult
            t={t}
            token={token}
            outTradeNo={view.outTradeNo}
            channel={view.channel}
            onDone={backHome}
          />
        )}
        {view.name === "home" && token && (
          <>
            <p className="hello" data-testid="h5-owner">
              {t("hello", { name: view.me.ownerName })}
            </p>
            <h2 className="section-title">{t("accounts")}</h2>
            {view.me.accounts.length === 0 && <p className="hint">{t("noAccounts")}</p>}
            {view.me.accounts.map((account) => (
              <AccountCard
                key={account.id}
                t={t}
                token={token}
                account={account}
                onRecharge={() => {
                  setNotice("");
                  setView({ name: "recharge", account });
                }}
              />
            ))}
            <NoticeList t={t} token={token} />
            <History t={t} token={token} />
            <div className="actions">
              <button type="button" className="secondary" onClick={unbind} data-testid="h5-unbind">
                {t("unbind")}
              </button>
              <button type="button" className="secondary" onClick={signOut}>
                {t("signOut")}
              </button>
            </div>
          </>
        )}
      </main>
    </div>
  );
}

/** Without a tenant in the address: the property code, as printed on the property's notice. */
function TenantEntry({ t }: { t: ReturnType<typeof translator> }) {
  const [code, setCode] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    location.search = `?tenant=${encodeURIComponent(code.trim())}`;
  };
  return (
    <form className="card" onSubmit={submit}>
      <p className="hint">{t("noTenant")}</p>
      <div className="field">
        <label htmlFor="h5-tenant">{t("tenantCode")}</label>
        <input
          id="h5-tenant"
          inputMode="numeric"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </div>
      <button type="submit" disabled={!/^\d{6}$/.test(code.trim())}>
        {t("enter")}
      </button>
    </form>
  );
}
