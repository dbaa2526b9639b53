import type { GrantTrees } from "@meterline/api-client";
import type { TreeNode } from "@meterline/contracts";
import { Modal, Spin, Tabs, Tree } from "antd";
import { useEffect, useState } from "react";
import { api, reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { useI18n } from "../../i18n/index.tsx";
import { checkedLeaves, scopeKeys } from "./grant-keys.ts";
import { ScopeTabEmpty } from "./ScopeTabEmpty.tsx";

type TreeName = keyof GrantTrees;
type Checked = Record<TreeName, string[]>;

interface Props {
  roleId: string;
  onClose: () => void;
}

const tabs: { name: TreeName; key: "role.grantMenu" | "role.grantDataScope" | "role.grantApiScope" }[] = [
  { name: "menu", key: "role.grantMenu" },
  { name: "dataScope", key: "role.grantDataScope" },
  { name: "apiScope", key: "role.grantApiScope" },
];

/** Menus, data scopes and API scopes of one role as three checkable trees, saved with role/grant. */
export function GrantDialog({ roleId, onClose }: Props) {
  const { t } = useI18n();
  const { message } = useFeedback();
  const [trees, setTrees] = useState<GrantTrees | null>(null);
  const [checked, setChecked] = useState<Checked>({ menu: [], dataScope: [], apiScope: [] });
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    Promise.all([api.grantTrees(), api.roleTreeKeys([roleId])])
      .then(([loaded, keys]) => {
        if (!live) return;
        setTrees(loaded);
        setChecked({
          menu: checkedLeaves(loaded.menu, keys.menu),
          dataScope: checkedLeaves(loaded.dataScope, keys.dataScope),
          apiScope: checkedLeaves(loaded.apiScope, keys.apiScope),
        });
      })
      .catch((error: unknown) => {
        reportNetworkError(error);
        if (live) onClose();
      });
    return () => {
      live = false;
    };
  }, [roleId, onClose]);

  const save = async () => {
    if (!trees) return;
    setSaving(true);
    try {
      await api.grantRoles({
        roleIds: [roleId],
        menuIds: checked.menu,
        dataScopeIds: scopeKeys(trees.dataScope, checked.dataScope),
        apiScopeIds: scopeKeys(trees.apiScope, checked.apiScope),
      });
      onClose();
      message.success(t("role.granted"));
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t("role.grant")}
      onCancel={onClose}
      onOk={save}
      okText={t("crud.submit")}
      confirmLoading={saving}
      okButtonProps={{ "data-testid": "grant-ok", disabled: !trees }}
      width={600}
    >
      {trees ? (
        <Tabs
          data-testid="grant-dialog"
          items={tabs.map(({ name, key }) => ({
            key: name,
            label: t(key),
            children: (
              <div data-testid={`grant-tree-${name}`}>
                {name !== "menu" && trees[name].length === 0 ? (
                  <ScopeTabEmpty kind={name} onLeave={onClose} />
                ) : (
                  <Tree<TreeNode>
                    checkable
                    defaultExpandAll
                    // Not virtual: every node stays in the page, so none is unreachable without scrolling the tree.
                    virtual={false}
                    style={{ maxHeight: 420, overflow: "auto" }}
                    treeData={trees[name]}
                    titleRender={(node) => <span data-testid={`grant-node-${node.key}`}>{node.title}</span>}
                    checkedKeys={checked[name]}
                    onCheck={(keys) => {
                      const list = Array.isArray(keys) ? keys : keys.checked;
                      setChecked((c) => ({ ...c, [name]: list.map(String) }));
                    }}
                  />
                )}
              </div>
            ),
          }))}
        />
      ) : (
        <Spin />
      )}
    </Modal>
  );
}
