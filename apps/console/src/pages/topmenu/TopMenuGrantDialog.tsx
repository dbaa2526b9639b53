import type { TreeNode } from "@meterline/contracts";
import { Empty, Modal, Spin, Tree } from "antd";
import { useEffect, useState } from "react";
import { api, reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { useSaving } from "../../app/useSaving.ts";
import { useI18n } from "../../i18n/index.tsx";
import { checkedLeaves } from "../role/grant-keys.ts";

interface Props {
  topMenuId: string;
  /** The top menu's name, in the title. */
  name: string;
  onClose: () => void;
}

/**
 * 菜单配置: the screens one top menu holds, as a checkable tree of the screens the caller may
 * grant (spec §6 "Top menus can be granted menus"); the sidebar under that top menu shows them.
 */
export function TopMenuGrantDialog({ topMenuId, name, onClose }: Props) {
  const { t } = useI18n();
  const { message } = useFeedback();
  const [tree, setTree] = useState<TreeNode[] | null>(null);
  const [checked, setChecked] = useState<string[]>([]);
  const { saving, save } = useSaving();

  useEffect(() => {
    let live = true;
    Promise.all([api.grantTopTree(), api.topTreeKeys([topMenuId])])
      .then(([loaded, keys]) => {
        if (!live) return;
        setTree(loaded.menu);
        // Held screens come with their ancestors: only leaves are checked, parents follow.
        setChecked(checkedLeaves(loaded.menu, keys.menu));
      })
      .catch((error: unknown) => {
        reportNetworkError(error);
        if (live) onClose();
      });
    return () => {
      live = false;
    };
  }, [topMenuId, onClose]);

  const submit = () =>
    save(async () => {
      await api.grantTopMenus({ topMenuIds: [topMenuId], menuIds: checked });
      onClose();
      message.success(t("topMenu.granted"));
    });

  return (
    <Modal
      open
      title={t("topMenu.grantTitle", { name })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t("crud.submit")}
      confirmLoading={saving}
      okButtonProps={{ "data-testid": "topmenu-grant-ok", disabled: !tree }}
      width={560}
    >
      {!tree ? (
        <Spin />
      ) : tree.length === 0 ? (
        <Empty description={t("topMenu.nothingToGrant")} />
      ) : (
        <div data-testid="topmenu-grant-tree">
          <Tree<TreeNode>
            checkable
            defaultExpandAll
            // Not virtual: every node stays in the page, so none is unreachable without scrolling the tree.
            virtual={false}
            style={{ maxHeight: 460, overflow: "auto" }}
            treeData={tree}
            checkedKeys={checked}
            onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(String))}
          />
        </div>
      )}
    </Modal>
  );
}
