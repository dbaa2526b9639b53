import { EllipsisOutlined } from "@ant-design/icons";
import type { Row } from "@meterline/api-client";
import { Button, Dropdown, type MenuProps } from "antd";
import { Children, Fragment, isValidElement, type ReactElement, type ReactNode, useRef } from "react";
import { useT } from "../i18n/index.tsx";
import { textWidth } from "./column-sizing.ts";

interface Props {
  row: Row;
  /** Which standard buttons the user's permission codes allow. */
  allowed: { view: boolean; edit: boolean; remove: boolean; addChild: boolean };
  onView: () => void;
  onEdit: () => void;
  onRemove: () => void;
  onAddChild: () => void;
  extra?: ReactNode;
}

/** One row button, whether standard or a page's own. */
export interface RowAction {
  key: string;
  label: ReactNode;
  onClick: () => void;
  danger?: boolean;
  testId?: string;
}

/** Actions shown as buttons; the rest go into the "more" menu so a row stays one line high. */
export const VISIBLE_ACTIONS = 2;

interface ButtonLike {
  onClick?: () => void;
  children?: ReactNode;
  danger?: boolean;
  "data-testid"?: string;
}

/**
 * The buttons a page passes as `extra` (plain link buttons, possibly in fragments or a Space),
 * read as actions. Pages keep passing the buttons they always did; the table decides which show.
 */
export function actionsOf(node: ReactNode, into: RowAction[] = []): RowAction[] {
  Children.forEach(node, (child) => {
    if (!isValidElement(child)) return;
    const props = child.props as ButtonLike;
    if (typeof props.onClick === "function") {
      const onClick = props.onClick;
      into.push({
        key: props["data-testid"] ?? `extra-${into.length}`,
        label: props.children,
        onClick: () => onClick(),
        danger: props.danger,
        testId: props["data-testid"],
      });
    } else if ((child as ReactElement).type === Fragment || props.children) {
      actionsOf(props.children, into);
    }
  });
  return into;
}

/** The standard actions the permissions allow, then the page's own. */
export function rowActionList(
  props: Omit<Props, "row">,
  t: (key: "crud.view" | "crud.edit" | "crud.remove" | "crud.addChild") => string,
) {
  const list: RowAction[] = [];
  const { allowed } = props;
  if (allowed.view)
    list.push({ key: "view", label: t("crud.view"), onClick: props.onView, testId: "row-view" });
  if (allowed.edit)
    list.push({ key: "edit", label: t("crud.edit"), onClick: props.onEdit, testId: "row-edit" });
  if (allowed.remove)
    list.push({
      key: "remove",
      label: t("crud.remove"),
      onClick: props.onRemove,
      testId: "row-remove",
      danger: true,
    });
  if (allowed.addChild)
    list.push({
      key: "addChild",
      label: t("crud.addChild"),
      onClick: props.onAddChild,
      testId: "row-add-child",
    });
  return actionsOf(props.extra, list);
}

/** Link buttons' padding, and the "more" button beside them. */
const BUTTON_PADDING = 16;
const MORE_WIDTH = 32;

/** The width the actions of a row take on one line: the visible buttons and, when some are left, "more". */
export function actionsWidth(actions: readonly RowAction[]): number {
  const shown = actions.slice(0, VISIBLE_ACTIONS);
  const buttons = shown.reduce(
    (sum, action) =>
      sum + BUTTON_PADDING + textWidth(typeof action.label === "string" ? action.label : "    "),
    0,
  );
  return buttons + (actions.length > VISIBLE_ACTIONS ? MORE_WIDTH : 0);
}

/**
 * The row buttons of a resource table on one line: the first two as link buttons, the rest in a
 * "more" menu (a button, so it opens from the keyboard, and its items are reached with the arrows).
 */
export function RowActions(props: Props) {
  const t = useT();
  const actions = rowActionList(props, t);
  const shown = actions.slice(0, VISIBLE_ACTIONS);
  const rest = actions.slice(VISIBLE_ACTIONS);
  const more = useRef<HTMLButtonElement>(null);
  const menu: MenuProps = {
    items: rest.map((action) => ({
      key: action.key,
      danger: action.danger,
      label: <span data-testid={action.testId}>{action.label}</span>,
    })),
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      // Picked with Enter: without this the key's keypress reaches the confirm the action opens and
      // presses its OK at once.
      domEvent.preventDefault();
      // The focus goes to "more" before the action runs: a confirm or dialog it opens gives the
      // focus back to what had it when it closes, and the menu item it was picked from is gone by then.
      more.current?.focus();
      rest.find((action) => action.key === key)?.onClick();
    },
  };
  return (
    <span className="crud-row-actions">
      {shown.map((action) => (
        <Button
          key={action.key}
          type="link"
          size="small"
          danger={action.danger}
          onClick={action.onClick}
          data-testid={action.testId}
        >
          {action.label}
        </Button>
      ))}
      {rest.length > 0 ? (
        <Dropdown menu={menu} trigger={["click"]} autoFocus>
          <Button
            ref={more}
            type="link"
            size="small"
            icon={<EllipsisOutlined />}
            aria-label={t("crud.more")}
            title={t("crud.more")}
            data-testid="row-more"
            onClick={(event) => event.stopPropagation()}
          />
        </Dropdown>
      ) : null}
    </span>
  );
}
