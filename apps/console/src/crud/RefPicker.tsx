import type { FieldDef } from "@meterline/contracts";
import { Empty, Form, Select, Spin, TreeSelect } from "antd";
import { useCallback, useMemo } from "react";
import { useI18n } from "../i18n/index.tsx";
import { linkLabelKey } from "./fields.ts";
import { useResourceForm } from "./form-context.ts";
import { fieldLabel } from "./labels.ts";
import { linkTarget, type PickerSource, pickerDependencies, pickerSource } from "./pickers.ts";
import { type PickerNode, type PickerOption, treeHas, usePickerChoices } from "./usePickerChoices.ts";

interface Props {
  /** The field's name in its form: registered pickers and link labels are found by it. */
  name: string;
  field: FieldDef;
  disabled?: boolean;
  value?: unknown;
  onChange?: (value: unknown) => void;
  id?: string;
}

type Values = Record<string, unknown> | undefined;

/**
 * The control of a link field (`ref` or `refBy`): a tree select for targets with a tree (only
 * nodes the server marks selectable can be chosen), else a select. Which target and which choices
 * depend on the form around it (pickers.ts); the edited row's own value stays selectable even when
 * a picker offers only what is still free, shown by the label the server joined in.
 */
export function RefPicker({ name, field, value, onChange, disabled, id, ...rest }: Props) {
  const { t, language } = useI18n();
  const scope = useResourceForm();
  const form = Form.useFormInstance();
  const purpose = scope?.purpose ?? "form";
  const def = scope?.def;
  const dependencies = useMemo(
    () => (def ? pickerDependencies(def, name, purpose) : []),
    [def, name, purpose],
  );
  const select = useCallback(
    (all: Values) => Object.fromEntries(dependencies.map((d) => [d, all?.[d]])),
    [dependencies],
  );
  const around: Record<string, unknown> = Form.useWatch(select, { form, preserve: true }) ?? {};
  const target = linkTarget(field, around);
  const source: PickerSource = target
    ? pickerSource({ resource: def?.name ?? "", field: name, target, values: around, purpose })
    : { kind: "none", waitFor: field.refBy?.field ?? "" };
  const { choices, loading } = usePickerChoices(source);

  // A search filters on one linked row at a time, also for a field that links several.
  const multiple = field.type === "idList" && purpose === "form";
  const current = typeof value === "string" && value !== "" ? value : undefined;
  // The label of the row's own link, for a value the narrowed choices no longer hold.
  const ownLabel =
    scope?.row && current !== undefined && String(scope.row[name] ?? "") === current
      ? String(scope.row[linkLabelKey(name)] ?? current)
      : undefined;
  const width = purpose === "search" ? 200 : "100%";
  // Until its choices arrive a picker would show the bare id; it shows its loading state instead.
  const pending = (known: boolean) => (loading && current !== undefined && !known ? undefined : value);
  const empty = loading ? <Spin size="small" /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;

  if (choices.kind === "none" || source.kind === "none") {
    const waitFor = source.kind === "none" ? source.waitFor : "";
    return (
      <Select
        {...rest}
        id={id}
        disabled
        style={{ width }}
        placeholder={def && waitFor ? t("crud.pickFirst", { label: fieldLabel(def, waitFor, language) }) : ""}
      />
    );
  }
  if (choices.kind === "tree") {
    const own: PickerNode | undefined =
      ownLabel && current && !treeHas(choices.nodes, current)
        ? { id: current, parentId: "0", key: current, value: current, title: ownLabel, selectable: true }
        : undefined;
    return (
      <TreeSelect
        {...rest}
        id={id}
        value={
          pending(own !== undefined || treeHas(choices.nodes, current ?? "")) as string | string[] | undefined
        }
        onChange={onChange}
        disabled={disabled}
        treeData={own ? [own, ...choices.nodes] : choices.nodes}
        multiple={multiple}
        loading={loading}
        treeDefaultExpandAll
        treeExpandAction="click"
        allowClear
        showSearch
        treeNodeFilterProp="title"
        notFoundContent={empty}
        style={{ width }}
        popupMatchSelectWidth={purpose === "form"}
      />
    );
  }
  const own: PickerOption | undefined =
    ownLabel && current && !choices.options.some((o) => o.value === current)
      ? { value: current, label: ownLabel }
      : undefined;
  return (
    <Select
      {...rest}
      id={id}
      value={
        pending(own !== undefined || choices.options.some((o) => o.value === current)) as
          | string
          | string[]
          | undefined
      }
      onChange={onChange}
      disabled={disabled}
      options={own ? [own, ...choices.options] : choices.options}
      mode={multiple ? "multiple" : undefined}
      loading={loading}
      allowClear
      showSearch={{ optionFilterProp: "label" }}
      notFoundContent={empty}
      style={{ width }}
    />
  );
}
