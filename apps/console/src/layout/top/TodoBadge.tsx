import { CarryOutOutlined } from "@ant-design/icons";
import { Badge, Button, Tooltip } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { useT } from "../../i18n/index.tsx";
import { onTodoChange } from "../../pages/work/todo-signal.ts";
import { loadTodoCount } from "../../pages/work/work-calls.ts";

/**
 * The open tasks assigned to the user (todo-list's total), linking to 待办事务. It counts again
 * when the window regains focus and whenever a screen claims, completes or starts a task.
 */
export function TodoBadge() {
  const t = useT();
  const navigate = useNavigate();
  const [count, setCount] = useState(0);

  const refresh = useCallback(() => {
    loadTodoCount()
      .then(setCount)
      .catch(() => setCount(0));
  }, []);

  useEffect(() => {
    refresh();
    window.addEventListener("focus", refresh);
    const stop = onTodoChange(refresh);
    return () => {
      window.removeEventListener("focus", refresh);
      stop();
    };
  }, [refresh]);

  const label = t("top.todo", { count });
  return (
    <Tooltip title={label}>
      <span data-testid="todo-badge" data-count={count}>
        <Badge count={count} size="small" offset={[-6, 6]}>
          <Button
            type="text"
            className="ml-top-button"
            icon={<CarryOutOutlined />}
            aria-label={label}
            onClick={() => navigate("/work/todo")}
            data-testid="todo-button"
          />
        </Badge>
      </span>
    </Tooltip>
  );
}
