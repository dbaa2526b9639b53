import type { FieldDef, ResourceDef } from "@meterline/contracts";
import { Button, Descriptions, type DescriptionsProps, Image, Modal } from "antd";
import type { ReactNode } from "react";
import { useI18n } from "../i18n/index.tsx";
import type { Language } from "../store/state.ts";
import type { FormCustomization } from "./form-customization.ts";
import { fieldLabel, resourceTitle } from "./labels.ts";
import { useReturnFocus } from "./useReturnFocus.ts";
import { EMPTY_VALUE, viewFields, viewText } from "./view-values.ts";

interface Props {
  def: ResourceDef;
  /** The row as the server answered it, with the labels of its dictionary values and links. */
  row: Record<string, unknown>;
  /** The same row as form values: what the page's customization decides on (which fields apply). */
  values: Record<string, unknown>;
  onClose: () => void;
  width?: number;
  customization?: FormCustomization;
}

/** Two columns on wide screens, one on narrow ones. */
const COLUMNS = { xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 2 } as const;
const THUMB = 64;

function shownValue(
  name: string,
  field: FieldDef,
  props: Props,
  language: Language,
  label: string,
): ReactNode {
  const { row, values, customization } = props;
  const Viewer = customization?.viewers?.[name];
  if (Viewer) return <Viewer value={values[name]} />;
  // A bespoke control the page gave no viewer for shows its value itself, read-only.
  const Editor = customization?.editors?.[name];
  if (Editor) return <Editor value={values[name]} disabled />;
  if (field.type === "image") {
    const link = row[name];
    return typeof link === "string" && link ? (
      <Image src={link} width={THUMB} height={THUMB} style={{ objectFit: "cover" }} alt={label} />
    ) : (
      EMPTY_VALUE
    );
  }
  return viewText(row, name, field, language);
}

/**
 * The view dialog of a resource (the family's view pattern): its fields as a read-only description
 * list, values as the table shows them, closed with its own button. Add and edit stay forms.
 */
export function ResourceView(props: Props) {
  const { def, values, onClose, width = 800, customization } = props;
  const { t, language } = useI18n();
  useReturnFocus();
  const visible = customization?.visible;
  const items: DescriptionsProps["items"] = viewFields(def)
    .filter(([name]) => !visible || visible(name, values))
    .map(([name, field]) => {
      const label = fieldLabel(def, name, language);
      const long = (field.span ?? 12) > 12 || field.type === "text" || field.type === "richtext";
      return {
        key: name,
        label,
        span: long ? COLUMNS : 1,
        children: (
          <div data-field={name} className="crud-view-value">
            {shownValue(name, field, props, language, label)}
          </div>
        ),
      };
    });
  return (
    <Modal
      open
      title={t("crud.titleView", { title: resourceTitle(def, language) })}
      width={width}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose} data-testid="crud-dialog-ok">
          {t("crud.close")}
        </Button>
      }
    >
      <Descriptions
        bordered
        size="small"
        column={COLUMNS}
        items={items}
        data-testid="crud-dialog"
        data-mode="view"
        styles={{ label: { width: 140 } }}
      />
    </Modal>
  );
}
