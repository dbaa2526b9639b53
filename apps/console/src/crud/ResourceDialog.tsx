import type { ResourceDef } from "@meterline/contracts";
import { Col, Form, Row as GridRow, Modal } from "antd";
import { useState } from "react";
import { useI18n } from "../i18n/index.tsx";
import { FieldInput } from "./FieldInput.tsx";
import { formFields } from "./fields.ts";
import { fieldLabel, resourceTitle } from "./labels.ts";
import { rulesOf } from "./rules.ts";

export type DialogMode = "add" | "edit" | "view";

interface Props {
  def: ResourceDef;
  mode: DialogMode;
  /** Form values (see toFormValues); the dialog is open while this is set. */
  initial: Record<string, unknown> | null;
  /** Saves the values; rejects to keep the dialog open (the error was already shown). */
  onSubmit: (values: Record<string, unknown>) => Promise<void>;
  onClose: () => void;
  width?: number;
  lockedFields?: readonly string[];
}

const titleKeys = { add: "crud.titleAdd", edit: "crud.titleEdit", view: "crud.titleView" } as const;

/** The add / edit / view dialog of a resource, its form derived from the same field definitions. */
export function ResourceDialog({
  def,
  mode,
  initial,
  onSubmit,
  onClose,
  width = 800,
  lockedFields = [],
}: Props) {
  const { t, language } = useI18n();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const open = initial !== null;

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await onSubmit({ ...values, id: initial?.id });
    } catch {
      // The failure was shown by the API bridge; the dialog stays open with what was typed.
    } finally {
      setSaving(false);
    }
  };

  const viewing = mode === "view";
  return (
    <Modal
      open={open}
      title={t(titleKeys[mode], { title: resourceTitle(def, language) })}
      width={width}
      onCancel={onClose}
      onOk={viewing ? onClose : save}
      okText={viewing ? t("crud.close") : t("crud.submit")}
      cancelButtonProps={viewing ? { style: { display: "none" } } : undefined}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ "data-testid": "crud-dialog-ok" }}
    >
      <Form
        form={form}
        layout="vertical"
        disabled={viewing}
        data-testid="crud-dialog"
        initialValues={initial ?? {}}
      >
        <GridRow gutter={16}>
          {formFields(def, mode === "add").map(([name, field]) => {
            const label = fieldLabel(def, name, language);
            return (
              <Col key={name} span={field.span ?? 12}>
                <Form.Item
                  name={name}
                  label={label}
                  rules={viewing ? [] : rulesOf(field, label, t, mode === "add")}
                >
                  <FieldInput
                    field={field}
                    disabled={
                      viewing ||
                      lockedFields.includes(name) ||
                      (mode === "edit" && field.readOnlyOnEdit === true)
                    }
                    data-field={name}
                  />
                </Form.Item>
              </Col>
            );
          })}
        </GridRow>
      </Form>
    </Modal>
  );
}
