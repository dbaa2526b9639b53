import type { QueryParams } from "@meterline/api-client";
import type { ResourceDef } from "@meterline/contracts";
import { Alert, Button, Form, Input, Modal, Radio, Space, Spin, Tree, Typography } from "antd";
import type { Key } from "react";
import { useCallback, useEffect, useState } from "react";
import { describeError } from "../../../../app/api.ts";
import { LoadFailed } from "../../../../components/LoadFailed.tsx";
import { useLoaded } from "../../../../components/useLoaded.ts";
import { loadMatching, matchingMeters } from "../../../../crud/matching.ts";
import { useT } from "../../../../i18n/index.tsx";
import { JobProgressDialog } from "../../../operation/batch-job/JobProgressDialog.tsx";
import type { Energy } from "../switch-calls.ts";
import {
  type AccountBatchAnswer,
  type AccountVerb,
  DEPOSIT_PATTERN,
  loadAccountTree,
  submitAccounts,
} from "./account-calls.ts";
import { meterLeaves, onlyMeters } from "./meter-tree.ts";

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
 * Opens or closes accounts in a batch: the ticked rows, the table's matching meters or meters chosen
 * from the opening / closing tree go to the server in one call, which runs them as a batch job (each
 * meter on its own: one refused meter does not hold back the others). Its progress, cancel and
 * retry of the failed follow in the job's dialog; one meter alone is answered at once.
 */
export function AccountBatchDialog({ energy, verb, selected, matching, onClose }: Props) {
  const t = useT();
  const [source, setSource] = useState<Source>(selected.length > 0 ? "rows" : "tree");
  const [matched, setMatched] = useState<Meter[]>([]);
  const [checked, setChecked] = useState<Key[]>([]);
  const [deposit, setDeposit] = useState("");
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<AccountBatchAnswer | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [treeTitles, setTreeTitles] = useState(new Map<string, string>());
  const noteTitles = useCallback((leaves: Map<string, string>) => setTreeTitles(leaves), []);

  const chosen =
    source === "rows"
      ? selected.map((m) => m.id)
      : source === "matching"
        ? matched.map((m) => m.id)
        : checked.map(String).filter((id) => treeTitles.has(id));
  const depositValid = deposit.trim() === "" || DEPOSIT_PATTERN.test(deposit.trim());

  const start = async () => {
    setSending(true);
    setRefusal(null);
    try {
      setAnswer(await submitAccounts(verb, energy, chosen, deposit.trim()));
    } catch (error) {
      // The server names the field and the meter; the choice stays for a second try.
      setRefusal(describeError(error));
    } finally {
      setSending(false);
    }
  };

  if (answer?.jobId)
    return (
      <JobProgressDialog
        jobId={answer.jobId}
        said={answer.said}
        skipped={answer.skipped}
        onClose={() => onClose(true)}
      />
    );

  const footer = answer ? (
    <Button type="primary" onClick={() => onClose(true)} data-testid="account-batch-finish">
      {t("meterAccount.finish")}
    </Button>
  ) : (
    <Space>
      <Button onClick={() => onClose(false)}>{t("common.cancel")}</Button>
      <Button
        type="primary"
        danger={verb === "close"}
        loading={sending}
        disabled={chosen.length === 0 || !depositValid}
        onClick={() => void start()}
        data-testid="account-batch-start"
      >
        {t(`meterAccount.batch.start.${verb}`, { count: chosen.length })}
      </Button>
    </Space>
  );

  return (
    <Modal
      open
      width={640}
      title={t(`meterAccount.batch.title.${verb}`)}
      footer={footer}
      onCancel={() => onClose(answer !== null)}
      maskClosable={false}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ width: "100%" }} data-testid="account-batch-dialog">
        {answer ? (
          <Alert type="success" showIcon title={answer.said} data-testid="account-batch-summary" />
        ) : (
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
            <Typography.Text type="secondary">{t(`meterAccount.batch.jobRule.${verb}`)}</Typography.Text>
            {refusal ? (
              <Alert type="error" showIcon title={refusal} data-testid="account-batch-refusal" />
            ) : null}
          </>
        )}
      </Space>
    </Modal>
  );
}
