import type { QueryParams } from "@meterline/api-client";
import type { ResourceDef } from "@meterline/contracts";
import {
  Alert,
  Button,
  Form,
  Input,
  List,
  Modal,
  Progress,
  Radio,
  Space,
  Spin,
  Statistic,
  Tree,
  Typography,
} from "antd";
import type { Key } from "react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { describeError } from "../../../../app/api.ts";
import { LoadFailed } from "../../../../components/LoadFailed.tsx";
import { useLoaded } from "../../../../components/useLoaded.ts";
import { loadMatching, matchingMeters } from "../../../../crud/matching.ts";
import { useT } from "../../../../i18n/index.tsx";
import type { Energy } from "../switch-calls.ts";
import { type Chunk, chunksOf, countsOf, retryFailed, runChunks } from "./account-batch.ts";
import {
  type AccountVerb,
  type ClosedAccount,
  closeAccounts,
  DEPOSIT_PATTERN,
  loadAccountTree,
  type OpenedAccount,
  openAccounts,
} from "./account-calls.ts";
import { meterLeaves, onlyMeters } from "./meter-tree.ts";

type Settled = OpenedAccount | ClosedAccount;
type Source = "rows" | "matching" | "tree";
type Meter = { id: string; productCode: string };

interface Props {
  energy: Energy;
  verb: AccountVerb;
  /** The ticked rows of the table, by id, with their addresses. */
  selected: Meter[];
  /** The table's search and its count, for a batch over every meter it matches. */
  matching?: { def: ResourceDef; search: QueryParams; total: number };
  /** `changed` says whether any chunk went through, so the table reloads only then. */
  onClose: (changed: boolean) => void;
}

/** The meters of the opening or closing tree, ticked by area, room or meter. */
function TreeChoice({
  energy,
  verb,
  checked,
  onCheck,
  titles,
}: {
  energy: Energy;
  verb: AccountVerb;
  checked: Key[];
  onCheck: (keys: Key[]) => void;
  titles: (leaves: Map<string, string>) => void;
}) {
  const t = useT();
  const load = useCallback(async () => {
    const nodes = onlyMeters(await loadAccountTree(verb, energy), energy === "electric" ? "meter" : "water");
    titles(meterLeaves(nodes));
    return nodes;
  }, [verb, energy, titles]);
  const { data, error, loading } = useLoaded(load);
  if (error) return <LoadFailed error={error} />;
  if (loading) return <Spin />;
  if (!data || data.length === 0)
    return <Typography.Text type="secondary">{t(`meterAccount.batch.treeEmpty.${verb}`)}</Typography.Text>;
  return (
    <Tree
      checkable
      selectable={false}
      defaultExpandAll
      treeData={data}
      fieldNames={{ key: "id", title: "title", children: "children" }}
      checkedKeys={checked}
      onCheck={(keys) => onCheck(Array.isArray(keys) ? keys : keys.checked)}
      style={{ maxHeight: 280, overflow: "auto" }}
      data-testid="account-tree"
    />
  );
}

/** Every meter the table's search matches, loaded when chosen and passed up once known. */
function MatchingChoice({
  def,
  search,
  onMeters,
}: {
  def: ResourceDef;
  search: QueryParams;
  onMeters: (meters: Meter[]) => void;
}) {
  const t = useT();
  const load = useCallback(() => loadMatching(def, search), [def, search]);
  const { data, error, loading } = useLoaded(load);
  useEffect(() => {
    if (data && data.total <= data.ids.length) onMeters(matchingMeters(data));
  }, [data, onMeters]);
  if (error) return <LoadFailed error={error} />;
  if (loading || !data) return <Spin />;
  if (data.total > data.ids.length)
    return <Alert type="warning" showIcon title={t("table.scope.tooMany", { max: data.limit })} />;
  return (
    <Typography.Text data-testid="account-matching-count">
      {t("table.scope.confirm", { count: data.total })}
    </Typography.Text>
  );
}

/**
 * Opens or closes accounts in batches: the ticked rows or meters chosen from the opening / closing
 * tree go to the server 20 at a time, each chunk all or nothing, with a progress bar, counts of
 * meters done and failed, a cancel that stops after the chunk in flight, a retry of the failed
 * chunks, and each failure listed with the server's reason.
 */
export function AccountBatchDialog({ energy, verb, selected, matching, onClose }: Props) {
  const t = useT();
  const [source, setSource] = useState<Source>(selected.length > 0 ? "rows" : "tree");
  const [matched, setMatched] = useState<Meter[]>([]);
  const [checked, setChecked] = useState<Key[]>([]);
  const [deposit, setDeposit] = useState("");
  const [chunks, setChunks] = useState<Chunk<Settled>[] | null>(null);
  const [running, setRunning] = useState(false);
  const stop = useRef(false);
  const [stopping, setStopping] = useState(false);
  const [treeTitles, setTreeTitles] = useState(new Map<string, string>());
  const noteTitles = useCallback((leaves: Map<string, string>) => setTreeTitles(leaves), []);

  const labels = useMemo(() => {
    const byId = new Map(treeTitles);
    for (const m of [...selected, ...matched]) byId.set(m.id, m.productCode);
    return byId;
  }, [selected, matched, treeTitles]);
  const label = (id: string) => labels.get(id) ?? id;
  const chosen =
    source === "rows"
      ? selected.map((m) => m.id)
      : source === "matching"
        ? matched.map((m) => m.id)
        : checked.map(String).filter((id) => treeTitles.has(id));
  const depositValid = deposit.trim() === "" || DEPOSIT_PATTERN.test(deposit.trim());

  const run = async (start: Chunk<Settled>[]) => {
    stop.current = false;
    setStopping(false);
    setRunning(true);
    setChunks(start);
    const send = (ids: string[]): Promise<Settled[]> =>
      verb === "open" ? openAccounts(energy, ids, deposit.trim()) : closeAccounts(energy, ids);
    await runChunks(start, send, describeError, () => stop.current, setChunks);
    setRunning(false);
  };
  const cancel = () => {
    stop.current = true;
    setStopping(true);
  };

  const counts = chunks ? countsOf(chunks) : null;
  const changed = (chunks ?? []).some((c) => c.state === "done");
  const failed = (chunks ?? []).filter((c) => c.state === "failed");
  const closings = (chunks ?? []).flatMap((c) =>
    verb === "close" ? ((c.results ?? []) as ClosedAccount[]) : [],
  );

  const footer = !chunks ? (
    <Space>
      <Button onClick={() => onClose(false)}>{t("common.cancel")}</Button>
      <Button
        type="primary"
        danger={verb === "close"}
        disabled={chosen.length === 0 || !depositValid}
        onClick={() => void run(chunksOf<Settled>(chosen))}
        data-testid="account-batch-start"
      >
        {t(`meterAccount.batch.start.${verb}`, { count: chosen.length })}
      </Button>
    </Space>
  ) : running ? (
    <Button onClick={cancel} disabled={stopping} data-testid="account-batch-cancel">
      {stopping ? t("meterAccount.batch.stopping") : t("meterAccount.batch.cancel")}
    </Button>
  ) : (
    <Space>
      {failed.length > 0 || (counts?.waiting ?? 0) > 0 ? (
        <Button onClick={() => void run(retryFailed(chunks))} data-testid="account-batch-retry">
          {t(failed.length > 0 ? "meterAccount.batch.retry" : "meterAccount.batch.resume")}
        </Button>
      ) : null}
      <Button type="primary" onClick={() => onClose(changed)} data-testid="account-batch-finish">
        {t("meterAccount.finish")}
      </Button>
    </Space>
  );

  return (
    <Modal
      open
      width={640}
      title={t(`meterAccount.batch.title.${verb}`)}
      footer={footer}
      onCancel={() => (running ? cancel() : onClose(changed))}
      maskClosable={false}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ width: "100%" }} data-testid="account-batch-dialog">
        {!chunks ? (
          <>
            <Radio.Group value={source} onChange={(e) => setSource(e.target.value as Source)}>
              <Radio value="rows" disabled={selected.length === 0} data-testid="account-source-rows">
                {t("meterAccount.batch.fromRows", { count: selected.length })}
              </Radio>
              {matching ? (
                <Radio value="matching" disabled={matching.total === 0} data-testid="account-source-matching">
                  {t("table.scope.matching", { count: matching.total })}
                </Radio>
              ) : null}
              <Radio value="tree" data-testid="account-source-tree">
                {t(`meterAccount.batch.fromTree.${verb}`)}
              </Radio>
            </Radio.Group>
            {source === "matching" && matching ? (
              <MatchingChoice def={matching.def} search={matching.search} onMeters={setMatched} />
            ) : null}
            {source === "tree" ? (
              <TreeChoice
                energy={energy}
                verb={verb}
                checked={checked}
                onCheck={setChecked}
                titles={noteTitles}
              />
            ) : null}
            {verb === "open" ? (
              <Form layout="vertical">
                <Form.Item
                  label={t("meterAccount.depositEach")}
                  htmlFor="account-batch-deposit"
                  extra={t("meterAccount.depositHint")}
                  validateStatus={depositValid ? undefined : "error"}
                  help={depositValid ? undefined : t("meterAccount.depositInvalid")}
                >
                  <Input
                    id="account-batch-deposit"
                    inputMode="decimal"
                    value={deposit}
                    onChange={(e) => setDeposit(e.target.value)}
                    suffix={t("meterAccount.yuan")}
                  />
                </Form.Item>
              </Form>
            ) : (
              <Alert type="warning" showIcon title={t("meterAccount.close.rule")} />
            )}
            <Typography.Text type="secondary">{t("meterAccount.batch.chunkRule")}</Typography.Text>
          </>
        ) : (
          <>
            <Progress
              percent={counts?.percent ?? 0}
              // The share is written in the counts below: antd's own text turns a green too light to read.
              showInfo={false}
              status={!running && failed.length > 0 ? "exception" : "normal"}
              aria-label={t(`meterAccount.batch.title.${verb}`)}
              data-testid="account-batch-progress"
            />
            <Space size="large" data-testid="account-batch-counts">
              <Statistic title={t("meterAccount.batch.share")} value={`${counts?.percent ?? 0}%`} />
              <Statistic title={t("meterAccount.batch.done")} value={counts?.done ?? 0} />
              <Statistic title={t("meterAccount.batch.failed")} value={counts?.failed ?? 0} />
              <Statistic title={t("meterAccount.batch.waiting")} value={counts?.waiting ?? 0} />
            </Space>
            {!running && counts ? (
              <Alert
                type={failed.length > 0 ? "warning" : counts.waiting > 0 ? "info" : "success"}
                showIcon
                title={t(
                  counts.waiting > 0 ? "meterAccount.batch.stopped" : `meterAccount.batch.finished.${verb}`,
                  { done: counts.done, failed: counts.failed, waiting: counts.waiting },
                )}
                data-testid="account-batch-summary"
              />
            ) : null}
            {failed.length > 0 ? (
              <List
                size="small"
                header={t("meterAccount.batch.failures")}
                dataSource={failed}
                renderItem={(chunk) => (
                  <List.Item data-testid="account-batch-failure">
                    <Typography.Text>
                      {chunk.meterIds.map(label).join("、")}: {chunk.reason}
                    </Typography.Text>
                  </List.Item>
                )}
              />
            ) : null}
            {closings.length > 0 ? (
              <List
                size="small"
                header={t("meterAccount.batch.settlements")}
                dataSource={closings}
                renderItem={(closed) => (
                  <List.Item data-testid="account-batch-settlement">
                    {t("meterAccount.batch.settlementLine", {
                      meter: label(closed.meterId),
                      refunded: closed.refunded,
                      debt: closed.debt,
                    })}
                  </List.Item>
                )}
              />
            ) : null}
          </>
        )}
      </Space>
    </Modal>
  );
}
