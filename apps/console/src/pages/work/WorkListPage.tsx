import type { Row } from "@meterline/api-client";
import { Button, Card, Space, Table, type TableColumnsType } from "antd";
import { useCallback, useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { type MessageKey, useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { diagramPath, loadDefinitionXml } from "../flow/flow-calls.ts";
import { ListEmpty } from "../flow/ListEmpty.tsx";
import { ModelDiagramDialog } from "../flow/model/ModelDiagramDialog.tsx";
import { type FlowState, StateTag } from "../flow/StateTag.tsx";
import { usePagedRows } from "../flow/usePagedRows.ts";
import { detailPath, formPath, handlePath } from "./leave-paths.ts";
import { announceTodoChange } from "./todo-signal.ts";
import { useFlowRoutes } from "./useFlowRoutes.ts";
import { claimTask, loadWorkList, type WorkList } from "./work-calls.ts";

type Column = TableColumnsType<Row>[number];

const text = (key: string): Column => ({
  key,
  dataIndex: key,
  render: (value: unknown) => String(value ?? ""),
});

/** The columns of each list beyond the process name, as the family's lists show them. */
const COLUMNS: Record<WorkList, string[]> = {
  start: ["name", "key", "categoryName", "version", "deploymentTime"],
  claim: ["processDefinitionName", "taskName", "categoryName", "createTime"],
  todo: ["processDefinitionName", "taskName", "categoryName", "createTime", "claimTime"],
  send: ["processDefinitionName", "categoryName", "taskName", "createTime", "endTime"],
  done: ["processDefinitionName", "taskName", "categoryName", "comment", "historyTaskEndTime"],
};

/** A definition is active or suspended; a task's or an instance's process is running or finished. */
const stateOf = (list: WorkList, row: Row): FlowState =>
  list === "start"
    ? Number(row.suspensionState) === 2
      ? "suspended"
      : "active"
    : row.processIsFinished === "finished"
      ? "finished"
      : "running";

/** claim and todo answer all rows at once (contract §13.2): no pager there. */
const PAGED: Record<WorkList, boolean> = { start: true, claim: false, todo: false, send: true, done: true };

/**
 * One screen of 我的事务: processes to start (发起 opens the category's form), tasks to claim (签收),
 * tasks to do (办理 opens the handle page), instances sent and tasks done; every task row opens its
 * request's detail with the steps so far.
 */
function WorkListPage({ list }: { list: WorkList }) {
  const t = useT();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const permission = useConsole((state) => state.permission);
  const load = useCallback(
    (current: number, size: number) => loadWorkList(list, current, PAGED[list] ? size : 1000),
    [list],
  );
  const { rows, loading, failed, reload, pagination } = usePagedRows(load);
  const routes = useFlowRoutes(rows.map((row) => String(row.category ?? "")));
  const [diagramOf, setDiagramOf] = useState<{ id: string; name: string } | null>(null);

  const routeOf = useCallback(
    (row: Row) => {
      const route = routes[String(row.category ?? "")];
      if (route === "")
        message.warning(t("work.noRoute", { name: String(row.categoryName || row.category) }));
      return route || undefined;
    },
    [routes, message, t],
  );

  const claim = useCallback(
    async (row: Row) => {
      try {
        await claimTask(String(row.taskId));
        message.success(t("work.claimed"));
        announceTodoChange();
        await reload();
      } catch (error) {
        reportNetworkError(error);
      }
    },
    [message, t, reload],
  );

  const columns = useMemo((): TableColumnsType<Row> => {
    const may = (suffix: string) => permission[`work_${list}_${suffix}`] === true;
    const open = (row: Row, to: (route: string) => string) => {
      const route = routeOf(row);
      if (route) navigate(to(route));
    };
    const detail = (row: Row) =>
      may("detail") && (
        <Button
          type="link"
          size="small"
          data-testid="work-detail"
          onClick={() =>
            open(row, (route) => detailPath(route, String(row.processInstanceId), String(row.businessId)))
          }
        >
          {t("work.detail")}
        </Button>
      );
    // 跟踪: the instance's diagram with the steps done and the one waiting now.
    const follow = (row: Row) =>
      may("follow") && (
        <Button
          type="link"
          size="small"
          data-testid="work-follow"
          onClick={() => navigate(diagramPath(String(row.processInstanceId)))}
        >
          {t("work.follow")}
        </Button>
      );
    const actions = (row: Row) => {
      if (list === "start") {
        return (
          <Space size={0}>
            {may("flow") && (
              <Button
                type="link"
                size="small"
                data-testid="work-start"
                disabled={Number(row.suspensionState) === 2}
                onClick={() => open(row, (route) => formPath(route, String(row.id)))}
              >
                {t("work.start")}
              </Button>
            )}
            {may("image") && (
              <Button
                type="link"
                size="small"
                data-testid="work-image"
                onClick={() => setDiagramOf({ id: String(row.id), name: String(row.name) })}
              >
                {t("flow.model.diagram")}
              </Button>
            )}
          </Space>
        );
      }
      return (
        <Space size={0}>
          {list === "claim" && may("sign") && (
            <Button type="link" size="small" data-testid="work-claim" onClick={() => void claim(row)}>
              {t("work.claim")}
            </Button>
          )}
          {list === "todo" && may("handle") && (
            <Button
              type="link"
              size="small"
              data-testid="work-handle"
              onClick={() =>
                open(row, (route) =>
                  handlePath(
                    route,
                    String(row.taskId),
                    String(row.processInstanceId),
                    String(row.businessId),
                  ),
                )
              }
            >
              {t("work.handle")}
            </Button>
          )}
          {detail(row)}
          {follow(row)}
        </Space>
      );
    };
    const state: Column = {
      key: "state",
      title: t("work.col.state"),
      render: (_: unknown, row: Row) => <StateTag state={stateOf(list, row)} />,
    };
    return [
      ...COLUMNS[list].map((key) => ({ ...text(key), title: t(`work.col.${key}` as MessageKey) })),
      state,
      { key: "actions", title: t("work.col.actions"), render: (_: unknown, row: Row) => actions(row) },
    ];
  }, [list, permission, t, navigate, routeOf, claim]);

  return (
    <Card data-testid="work-page" data-list={list} title={t(`menu.work_${list}` as MessageKey)}>
      <Table<Row>
        rowKey={(row) =>
          String(list === "start" || list === "send" ? row.id || row.processInstanceId : row.taskId)
        }
        columns={columns}
        dataSource={rows}
        loading={loading}
        size="middle"
        locale={{
          emptyText: (
            <ListEmpty
              failed={failed}
              description={t(`work.empty.${list}` as MessageKey)}
              retry={() => void reload()}
            />
          ),
        }}
        pagination={PAGED[list] ? pagination : false}
      />
      <ModelDiagramDialog model={diagramOf} onClose={() => setDiagramOf(null)} loadXml={loadDefinitionXml} />
    </Card>
  );
}

export const StartListPage = () => <WorkListPage list="start" />;
export const ClaimListPage = () => <WorkListPage list="claim" />;
export const TodoListPage = () => <WorkListPage list="todo" />;
export const SendListPage = () => <WorkListPage list="send" />;
export const DoneListPage = () => <WorkListPage list="done" />;
