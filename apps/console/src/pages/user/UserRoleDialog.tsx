import { resources } from "@meterline/contracts";
import { Alert, Empty, Form, Modal, Spin, TreeSelect } from "antd";
import { useState } from "react";
import { useFeedback } from "../../app/feedback.ts";
import { useSaving } from "../../app/useSaving.ts";
import { fieldLabel } from "../../crud/labels.ts";
import { linkTarget, pickerSource } from "../../crud/pickers.ts";
import { usePickerChoices } from "../../crud/usePickerChoices.ts";
import { useI18n } from "../../i18n/index.tsx";
import { grantRoles } from "./user-calls.ts";

interface Props {
  userIds: readonly string[];
  onClose: () => void;
  /** Called after the roles are set, so the page can show them in its table. */
  onGranted: () => void;
}

const roleField = resources.user.fields.roleId;

/**
 * 角色配置: the roles of every ticked user at once (spec §6 "Roles can be granted to users"). The
 * choices are those of the user form's role field; the users' sessions end, since roles ride in
 * the token.
 */
export function UserRoleDialog({ userIds, onClose, onGranted }: Props) {
  const { t, language } = useI18n();
  const { message } = useFeedback();
  const [roleIds, setRoleIds] = useState<string[]>([]);
  const [missing, setMissing] = useState(false);
  const { saving, save: saveWith } = useSaving();
  const target = linkTarget(roleField, {});
  const { choices, loading } = usePickerChoices(
    target
      ? pickerSource({ resource: "user", field: "roleId", target, values: {}, purpose: "form" })
      : { kind: "none", waitFor: "" },
  );
  const label = fieldLabel(resources.user, "roleId", language);

  const save = async () => {
    if (roleIds.length === 0) {
      setMissing(true);
      return;
    }
    await saveWith(async () => {
      await grantRoles(userIds, roleIds);
      message.success(t("user.rolesGranted", { count: userIds.length }));
      onGranted();
    });
  };

  const treeData =
    choices.kind === "tree"
      ? choices.nodes
      : choices.kind === "list"
        ? choices.options.map((o) => ({ value: o.value, title: o.label, key: o.value }))
        : [];
  return (
    <Modal
      open
      title={t("user.roleTitle", { count: userIds.length })}
      width={520}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t("crud.submit")}
      confirmLoading={saving}
      okButtonProps={{ "data-testid": "user-role-ok" }}
      destroyOnHidden
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t("user.roleHint")} />
      <Form layout="vertical" data-testid="user-role-dialog">
        <Form.Item
          label={label}
          required
          htmlFor="user-role-roles"
          validateStatus={missing ? "error" : undefined}
          help={missing ? t("crud.requiredSelect", { label }) : undefined}
        >
          <TreeSelect
            id="user-role-roles"
            value={roleIds}
            onChange={(next: string[]) => {
              setRoleIds(next);
              setMissing(next.length === 0);
            }}
            treeData={treeData}
            multiple
            loading={loading}
            treeDefaultExpandAll
            treeExpandAction="click"
            allowClear
            showSearch
            treeNodeFilterProp="title"
            notFoundContent={loading ? <Spin size="small" /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />}
            style={{ width: "100%" }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
