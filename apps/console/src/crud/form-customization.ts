import type { FormRule } from "antd";
import type { ComponentType, ReactNode } from "react";
import type { Translate } from "../i18n/index.tsx";

/** What Form.Item hands the control of a field. */
export interface FieldEditorProps {
  value?: unknown;
  onChange?: (value: unknown) => void;
  disabled?: boolean;
  id?: string;
}

/**
 * How a bespoke page shapes the generic add / edit / view form of its resource without copying it:
 * its own controls for some fields (a table of ladder tiers instead of JSON), fields shown only
 * when they apply, and checks across fields.
 */
export interface FormCustomization {
  /** Replaces the control of the named fields; the value is what the engine stores. */
  editors?: Partial<Record<string, ComponentType<FieldEditorProps>>>;
  /**
   * How the view dialog shows the named fields' stored values, where the value as text (or the
   * editor, read-only) would not read well: channel keys as their names.
   */
  viewers?: Partial<Record<string, ComponentType<{ value?: unknown }>>>;
  /**
   * Whether a field applies to the values now in the form. Fields that do not are hidden, and
   * sent cleared so no stale value stays behind (a flat price after switching to a ladder).
   */
  visible?: (name: string, values: Record<string, unknown>) => boolean;
  /** Checks beyond the definition's own, added to the field's rules; `label` is the field's label. */
  rules?: (name: string, t: Translate, label: string) => FormRule[];
  /** Fields whose rules read another field: revalidated when that one changes. */
  dependencies?: Partial<Record<string, readonly string[]>>;
  /** A hint under a field. */
  extra?: (name: string, t: Translate) => ReactNode;
}
