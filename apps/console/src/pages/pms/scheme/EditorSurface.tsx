import { Form } from "antd";
import type { ReactNode } from "react";

/**
 * The controls inside a table-like editor of one form field. A nested form without an element
 * resets the field's error status for them, so a problem turns one message under the editor red
 * rather than every cell of it.
 */
export function EditorSurface({ children }: { children: ReactNode }) {
  return <Form component={false}>{children}</Form>;
}
