import type { ResourceDef } from "@meterline/contracts";
import { Col, Form, Row as GridRow, Modal } from "antd";
import { useCallback, useMemo, useState } from "react";
import { useI18n } from "../i18n/index.tsx";
import { FieldInput } from "./FieldInput.tsx";
import { formFields } from "./fields.ts";
import { ResourceFormProvider, type ResourceFormScope } from "./form-context.ts";
import type { FormCustomization } from "./form-customization.ts";
import { fieldLabel, resourceTitle } from "./labels.ts";
import { dependentFields } from "./pickers.ts";
import { ResourceView } from "./ResourceView.tsx";
import { rulesOf } from "./rules.ts";
import { serverFieldError } from "./server-field-error.ts";
import { useReturnFocus } from "./useReturnFocus.ts";
import { validatedValues } from "./validated.ts";

export type DialogMode = "add" | "edit" | "view";

interface Props {
  def: ResourceDef;
  mode: DialogMode;
  /** Form values (see toFormValues); the dialog is open while this is set. */
  initial: Record<string, unknown> | null;
  /** The row as the server answered it (edit / view): its link labels name the current choices. */
  row?: Record<string, unknown>;
  /**
   * Saves the values; rejects to keep the dialog open (the error was already shown). `cleared`
   * names the fields hidden because they no longer apply.
   */
  onSubmit: (values: Record<string, unknown>, cleared: string[]) => Promise<void>;
  onClose: () => void;
  width?: number;
  lockedFields?: readonly string[];
  customization?: FormCustomization;
}

const titleKeys = { add: "crud.titleAdd", edit: "crud.titleEdit", view: "crud.titleView" } as const;

/**
 * The add / edit / view dialog of a resource: add and edit are a form derived from the field
 * definitions, view a read-only description list of the same fields.
 */
export function ResourceDialog(props: Props) {
  const { mode, initial, row } = props;
  if (mode === "view" && initial)
    return (
      <ResourceView
        def={props.def}
        row={row ?? initial}
        values={initial}
        onClose={props.onClose}
        width={props.width}
        customization={props.customization}
      />
    );
  return <ResourceForm {...props} />;
}

function ResourceForm({
  def,
  mode,
  initial,
  row,
  onSubmit,
  onClose,
  width = 800,
  lockedFields = [],
  customization,
}: Props) {
  const { t, language } = useI18n();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const open = initial !== null;
  const fields = useMemo(() => formFields(def, mode === "add"), [def, mode]);
  const visible = customization?.visible;
  useReturnFocus();

  // Only the names of the fields that apply are watched, so typing re-renders nothing else.
  const shownOf = useCallback(
    (values: Record<string, unknown> | undefined) =>
      fields
        .filter(([name]) => !visible || visible(name, { ...initial, ...values }))
        .map(([name]) => name)
        .join(","),
    [fields, visible, initial],
  );
  const shown = (Form.useWatch(shownOf, { form, preserve: true }) ?? shownOf(undefined)).split(",");
  const scope = useMemo<ResourceFormScope>(() => ({ def, purpose: "form", row }), [def, row]);

  const save = async () => {
    const values = await validatedValues(form);
    if (!values) return;
    const all = { ...initial, ...form.getFieldsValue(true), ...values };
    const cleared = visible ? fields.map(([name]) => name).filter((name) => !visible(name, all)) : [];
    setSaving(true);
    try {
      await onSubmit({ ...values, id: initial?.id }, cleared);
    } catch (error) {
      // The failure was shown by the API bridge; the dialog stays open with what was typed, and
      // a refusal naming a field is shown under that field too.
      const named = serverFieldError(error, def.fields);
      if (named && shown.includes(named.name)) form.setFields([{ name: named.name, errors: [named.reason] }]);
    } finally {
      setSaving(false);
    }
  };

  // A link whose choices depend on another field (a meter of the chosen energy type) is emptied
  // when that field changes: its old value belongs to other choices. Only typing triggers this.
  const onValuesChange = (changed: Record<string, unknown>) => {
    for (const name of Object.keys(changed)) {
      const stale = dependentFields(def, name, "form");
      if (stale.length > 0) form.setFieldsValue(Object.fromEntries(stale.map((s) => [s, undefined])));
    }
  };

  return (
    <Modal
      open={open}
      title={t(titleKeys[mode], { title: resourceTitle(def, language) })}
      width={width}
      onCancel={onClose}
      onOk={save}
      okText={t("crud.submit")}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ "data-testid": "crud-dialog-ok" }}
    >
      <ResourceFormProvider value={scope}>
        <Form
          form={form}
          layout="vertical"
          data-testid="crud-dialog"
          initialValues={initial ?? {}}
          onValuesChange={onValuesChange}
        >
          <GridRow gutter={16}>
            {fields
              .filter(([name]) => shown.includes(name))
              .map(([name, field]) => {
                const label = fieldLabel(def, name, language);
                const Editor = customization?.editors?.[name];
                const locked =
                  lockedFields.includes(name) || (mode === "edit" && field.readOnlyOnEdit === true);
                return (
                  <Col key={name} span={field.span ?? 12}>
                    <Form.Item
                      name={name}
                      label={label}
                      rules={[
                        ...rulesOf(field, label, t, mode === "add"),
                        ...(customization?.rules?.(name, t, label) ?? []),
                      ]}
                      dependencies={customization?.dependencies?.[name] as string[] | undefined}
                      extra={
                        customization?.extra?.(name, t) ??
                        (field.encrypted && mode === "edit" ? t("crud.encryptedHint") : undefined)
                      }
                    >
                      {Editor ? (
                        <Editor disabled={locked} />
                      ) : (
                        <FieldInput name={name} field={field} disabled={locked} data-field={name} />
                      )}
                    </Form.Item>
                  </Col>
                );
              })}
          </GridRow>
        </Form>
      </ResourceFormProvider>
    </Modal>
  );
}
