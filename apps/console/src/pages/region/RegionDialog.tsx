import { Button, Descriptions, Form, Input, InputNumber, Modal, Spin } from "antd";
import { useEffect, useState } from "react";
import { describeError, reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { LoadFailed } from "../../components/LoadFailed.tsx";
import { useT } from "../../i18n/index.tsx";
import { type Region, regionDetail, submitRegion } from "./region-calls.ts";
import { levelLabel } from "./region-labels.ts";

export type RegionDialogMode = "add" | "edit" | "view";

interface Props {
  mode: RegionDialogMode;
  /** The region viewed or edited (by code); none when adding. */
  code?: string;
  /** The region chosen in the tree: a new region goes under it. */
  parent: { code: string; name: string };
  onClose: () => void;
  onSaved: () => void;
}

interface Values {
  subCode: string;
  name: string;
  sort: number;
  remark?: string;
}

/**
 * View (a read-only description list, as the family's view dialogs), add under the chosen region
 * (the code is the parent's code followed by the sub-code, contract §10.8) or edit by code.
 */
export function RegionDialog({ mode, code, parent, onClose, onSaved }: Props) {
  const t = useT();
  const { message } = useFeedback();
  const [form] = Form.useForm<Values>();
  const [region, setRegion] = useState<Region | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!code) return;
    regionDetail(code).then(
      (found) => {
        setRegion(found);
        form.setFieldsValue({ name: found.name, sort: found.sort, remark: found.remark });
      },
      (failure) => setError(describeError(failure)),
    );
  }, [code, form]);

  const parentCode = mode === "add" ? parent.code : (region?.parentCode ?? "");
  const prefix = parentCode === "00" ? "" : parentCode;

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      await submitRegion({
        code: mode === "add" ? `${prefix}${values.subCode}` : (region?.code ?? ""),
        parentCode,
        name: values.name.trim(),
        sort: values.sort,
        remark: values.remark ?? "",
      });
      message.success(t(mode === "add" ? "crud.added" : "crud.updated"));
      onSaved();
    } catch (failure) {
      reportNetworkError(failure);
    } finally {
      setSaving(false);
    }
  };

  const title = t(mode === "add" ? "crud.add" : mode === "edit" ? "crud.edit" : "crud.view");
  const loading = Boolean(code) && !region && !error;
  let body: React.ReactNode;
  if (error) body = <LoadFailed error={error} />;
  else if (mode === "view" && region)
    body = (
      <Descriptions column={1} bordered size="small" data-testid="region-detail">
        <Descriptions.Item label={t("region.code")}>{region.code}</Descriptions.Item>
        <Descriptions.Item label={t("region.name")}>{region.name}</Descriptions.Item>
        <Descriptions.Item label={t("region.parentName")}>{region.parentName}</Descriptions.Item>
        <Descriptions.Item label={t("region.level")}>{levelLabel(t, region.regionLevel)}</Descriptions.Item>
        <Descriptions.Item label={t("region.ancestors")}>{region.ancestors}</Descriptions.Item>
        <Descriptions.Item label={t("region.sort")}>{region.sort}</Descriptions.Item>
        <Descriptions.Item label={t("region.remark")}>{region.remark}</Descriptions.Item>
      </Descriptions>
    );
  else
    body = (
      <Form form={form} layout="vertical" initialValues={{ sort: 1 }} data-testid="region-form">
        <Form.Item label={t("region.parentName")} htmlFor="regionParentName">
          <Input
            id="regionParentName"
            value={mode === "add" ? parent.name : (region?.parentName ?? "")}
            disabled
          />
        </Form.Item>
        {mode === "add" ? (
          <Form.Item
            name="subCode"
            label={t("region.subCode")}
            rules={[
              { required: true, message: t("crud.required", { label: t("region.subCode") }) },
              { pattern: /^\d{1,10}$/, message: t("region.codePattern") },
            ]}
          >
            <Input addonBefore={prefix || undefined} maxLength={10} inputMode="numeric" />
          </Form.Item>
        ) : (
          <Form.Item label={t("region.code")} htmlFor="regionCode">
            <Input id="regionCode" value={region?.code ?? ""} disabled />
          </Form.Item>
        )}
        <Form.Item
          name="name"
          label={t("region.name")}
          rules={[
            { required: true, whitespace: true, message: t("crud.required", { label: t("region.name") }) },
            { max: 64, message: t("crud.maxLength", { label: t("region.name"), max: 64 }) },
          ]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="sort" label={t("region.sort")} rules={[{ required: true }]}>
          <InputNumber min={0} max={100000} precision={0} style={{ width: "100%" }} />
        </Form.Item>
        <Form.Item name="remark" label={t("region.remark")}>
          <Input.TextArea maxLength={255} rows={2} />
        </Form.Item>
      </Form>
    );

  return (
    <Modal
      open
      title={title}
      width={560}
      onCancel={onClose}
      destroyOnHidden
      footer={
        mode === "view"
          ? [
              <Button key="close" onClick={onClose}>
                {t("crud.close")}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={onClose}>
                {t("common.cancel")}
              </Button>,
              <Button
                key="save"
                type="primary"
                loading={saving}
                onClick={() => void save()}
                data-testid="region-save"
              >
                {t("crud.submit")}
              </Button>,
            ]
      }
    >
      <Spin spinning={loading}>{body}</Spin>
    </Modal>
  );
}
