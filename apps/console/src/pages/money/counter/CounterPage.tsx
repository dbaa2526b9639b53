import { Button, Card, Col, Empty, Input, Row, Select, Space } from "antd";
import { useCallback, useState } from "react";
import { useLiveChanges } from "../../../app/live.ts";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useLoaded } from "../../../components/useLoaded.ts";
import { TenantFilter, usePlatformAdministrator } from "../../../crud/tenant-column.tsx";
import { useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { CounterHits } from "./CounterHits.tsx";
import { type OwnerAccount, type OwnerWithAccounts, searchCounter } from "./counter-calls.ts";
import { GroupRechargeDialog } from "./GroupRechargeDialog.tsx";
import { type CounterAction, OwnerPanel } from "./OwnerPanel.tsx";
import { ReceiptDialog } from "./ReceiptDialog.tsx";
import { RechargeDialog } from "./RechargeDialog.tsx";
import type { ReceiptData } from "./receipt-data.ts";
import "./money-counter.css";

interface Query {
  keyword: string;
  alarmLevel: string;
  /** The platform administrator's one tenant; empty for every tenant. */
  tenantId: string;
  current: number;
}

/**
 * The front desk's recharge counter (充值收费): one search box read as a building and room, a name,
 * a phone or a meter number; each room found with its owner and every meter apart (balance, level,
 * supply) at a glance; the chosen owner's accounts and usage; and
 * recharge, refund and correction with a printable receipt. The platform administrator searches
 * every tenant's owners, each named with its tenant, or narrows to one, as on the other money lists;
 * what it books on an owner is booked in that owner's tenant.
 */
export default function CounterPage() {
  const t = useT();
  const canGroup = useConsole((state) => state.permission.ownerRecharge_group === true);
  const platform = usePlatformAdministrator();
  // A detail page's 充值 opens the counter with its owner or meter looked up (?keyword=).
  const [asked] = useState(() => new URLSearchParams(window.location.search).get("keyword") ?? "");
  const [text, setText] = useState(asked);
  const [query, setQuery] = useState<Query>({ keyword: asked, alarmLevel: "", tenantId: "", current: 1 });
  const [picked, setPicked] = useState<OwnerWithAccounts>();
  const [acting, setActing] = useState<{ action: CounterAction; account: OwnerAccount }>();
  const [receipt, setReceipt] = useState<ReceiptData>();
  const [grouping, setGrouping] = useState(false);

  const load = useCallback(
    () => searchCounter(query.keyword, query.current, query.alarmLevel, query.tenantId),
    [query],
  );
  const found = useLoaded(load);
  const reload = () => setQuery((q) => ({ ...q }));
  // The chosen owner stays on screen through a new search; a reload brings their fresh balances.
  const chosen = found.data?.records.find((hit) => hit.owner?.id === picked?.id)?.owner ?? picked;
  // Balances and supply on screen follow the server (a restore after a recharge, the gateway's
  // read-back) without 刷新.
  useLiveChanges(
    [
      ...(found.data?.records.flatMap((hit) => hit.meters.map((m) => m.meterId)) ?? []),
      ...(chosen?.accounts.map((a) => a.meterId) ?? []),
    ],
    reload,
    ["supply", "balance"],
  );

  const search = (keyword: string) => {
    setQuery((q) => ({ ...q, keyword, current: 1 }));
  };
  const booked = (done: ReceiptData) => {
    setActing(undefined);
    setReceipt(done);
    reload();
  };

  return (
    <Card data-testid="counter-page">
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={9}>
          <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
            <Input.Search
              value={text}
              onChange={(event) => setText(event.target.value)}
              onSearch={search}
              placeholder={t("counter.searchPlaceholder")}
              aria-label={t("counter.searchLabel")}
              enterButton={t("counter.search")}
              allowClear
              autoFocus
              data-testid="counter-search"
            />
            <Space wrap>
              {platform && (
                <TenantFilter
                  shown={platform}
                  value={query.tenantId || undefined}
                  onChange={(tenantId) => setQuery((q) => ({ ...q, tenantId: tenantId ?? "", current: 1 }))}
                  aria-label={t("crud.tenant")}
                />
              )}
              <Select
                value={query.alarmLevel}
                onChange={(alarmLevel: string) => setQuery((q) => ({ ...q, alarmLevel, current: 1 }))}
                aria-label={t("counter.levelFilter")}
                style={{ minWidth: 160 }}
                options={[
                  { value: "", label: t("counter.levelAll") },
                  ...([1, 2, 3] as const).map((level) => ({
                    value: String(level),
                    label: t(`counter.level.${level}`),
                  })),
                ]}
                data-testid="counter-level-filter"
              />
              {canGroup && (
                <Button onClick={() => setGrouping(true)} data-testid="counter-group">
                  {t("counter.group")}
                </Button>
              )}
            </Space>
            {found.error && !found.data ? (
              <LoadFailed error={found.error} onRetry={reload} testId="counter-load-failed" />
            ) : (
              <CounterHits
                page={found.data}
                loading={found.loading}
                chosenId={chosen?.id}
                showTenant={platform}
                onChoose={setPicked}
                onPage={(current) => setQuery((q) => ({ ...q, current }))}
              />
            )}
          </Space>
        </Col>
        <Col xs={24} xl={15}>
          {chosen ? (
            <OwnerPanel
              owner={chosen}
              showTenant={platform}
              onAction={(action, account) => setActing({ action, account })}
            />
          ) : (
            <Empty description={t("counter.pickOwner")} data-testid="counter-pick-owner" />
          )}
        </Col>
      </Row>
      {acting && chosen && (
        <RechargeDialog
          owner={chosen}
          action={acting.action}
          accountId={acting.account.id}
          onBooked={booked}
          onClose={() => {
            setActing(undefined);
            reload();
          }}
        />
      )}
      {receipt && <ReceiptDialog receipt={receipt} onClose={() => setReceipt(undefined)} />}
      {grouping && (
        <GroupRechargeDialog
          onClose={(didBook) => {
            setGrouping(false);
            if (didBook) reload();
          }}
        />
      )}
    </Card>
  );
}
